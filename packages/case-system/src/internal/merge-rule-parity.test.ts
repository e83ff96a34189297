import {
  type CasePlacementInput,
  chooseOpenCase,
  inMergeScope,
  type OpenCase,
  openCaseQuery,
} from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCaseOrderBy, placementLock, placementStatement, readPlacement } from "./placement-queries.js";
import { businessDebtor, caseOrderInput } from "./testing/case-order-input.js";
import { closeTarget, newOrganisation, storeTargets } from "./testing/store-targets.js";

// The merge rule is written once in core (merge-rule.ts: openCaseQuery and inMergeScope for the
// scope, OPEN_CASE_ORDER for the ranking, chooseOpenCase for the choice) and followed by two paths:
// chooseOpenCase for a host's smaller calls, and the built-in's placement statement, which must
// decide under its lock in one statement (decision case-system-merge-rule-shared). Each row of the
// table below is run through both on the same cases, and both must give the row's answer.

const targets = storeTargets("merge_rule");

/** A case already kept: its number (after the row's prefix), when it opened, and its debtors' numbers. */
interface KeptCase {
  n: string;
  openedAt: string;
  customerNumbers: (string | null)[];
  open?: boolean;
  creditorId?: string | null;
  /** Kept for the other organisation. */
  elsewhere?: boolean;
  /** Opened by the order of the row itself (a retry after a crash). */
  byThisOrder?: boolean;
}

/** A case opened on `day` November 2026 at 09:00 UTC. */
const kept = (
  n: string,
  day: number,
  customerNumbers: (string | null)[],
  extra: Partial<KeptCase> = {},
): KeptCase => ({
  n,
  openedAt: `2026-11-${String(day).padStart(2, "0")}T09:00:00Z`,
  customerNumbers,
  ...extra,
});

/** What the order does: join a case, find its own, or open one; `others` for multiple_open_cases. */
interface Answer {
  join?: string;
  own?: string;
  others: string[];
}

/** A customer number of a row, kept apart from the other rows' (the rows share an organisation). */
const own = (prefix: string, n: string | null) => (n === null ? null : `${prefix}-${n}`);

interface Row {
  name: string;
  cases: KeptCase[];
  order: { customerNumbers: (string | null)[]; creditorId?: string | null };
  answer: Answer;
}

const rows: Row[] = [
  { name: "no case: opens one", cases: [], order: { customerNumbers: ["K"] }, answer: { others: [] } },
  {
    name: "one open case with the customer number: joins it",
    cases: [kept("000001", 1, ["K"])],
    order: { customerNumbers: ["K"] },
    answer: { join: "000001", others: [] },
  },
  {
    name: "several open cases: the one opened first, then the others oldest first",
    cases: [kept("000007", 3, ["K"]), kept("000009", 1, ["K"]), kept("000002", 2, ["K"])],
    order: { customerNumbers: ["K"] },
    answer: { join: "000009", others: ["000002", "000007"] },
  },
  {
    name: "opened at the same moment: the case number by code point (1000000 before 999999)",
    cases: [kept("999999", 1, ["K"]), kept("1000000", 1, ["K"]), kept("000005", 1, ["K"])],
    order: { customerNumbers: ["K"] },
    answer: { join: "000005", others: ["1000000", "999999"] },
  },
  {
    name: "a closed case is never joined",
    cases: [kept("000001", 1, ["K"], { open: false }), kept("000002", 2, ["K"])],
    order: { customerNumbers: ["K"] },
    answer: { join: "000002", others: [] },
  },
  {
    name: "the organisation's own principal meets only itself, not a managed creditor",
    cases: [kept("000001", 1, ["K"], { creditorId: "cred_1" }), kept("000002", 2, ["K"])],
    order: { customerNumbers: ["K"] },
    answer: { join: "000002", others: [] },
  },
  {
    name: "a managed creditor meets only its own cases",
    cases: [
      kept("000001", 1, ["K"]),
      kept("000002", 2, ["K"], { creditorId: "cred_2" }),
      kept("000003", 3, ["K"], { creditorId: "cred_1" }),
    ],
    order: { customerNumbers: ["K"], creditorId: "cred_1" },
    answer: { join: "000003", others: [] },
  },
  {
    name: "another organisation's case with the same customer number is never joined",
    cases: [kept("000001", 1, ["K"], { elsewhere: true }), kept("000002", 2, ["K"])],
    order: { customerNumbers: ["K"] },
    answer: { join: "000002", others: [] },
  },
  {
    name: "any debtor of the order and any debtor of a case: each case once",
    cases: [kept("000001", 2, ["A", "B"]), kept("000002", 1, [null, "B"]), kept("000003", 3, ["C"])],
    order: { customerNumbers: ["B", null, "A", "B"] },
    answer: { join: "000002", others: ["000001"] },
  },
  {
    name: "an order without customer numbers never joins, not even a case of debtors without one",
    cases: [kept("000001", 1, [null])],
    order: { customerNumbers: [null, null] },
    answer: { others: [] },
  },
  {
    name: "the case the order opened itself before (a retry) is its own, though an older one is open",
    cases: [kept("000001", 1, ["K"]), kept("000002", 2, ["K"], { byThisOrder: true })],
    order: { customerNumbers: ["K"] },
    answer: { own: "000002", others: [] },
  },
];

describe.each(targets)("the merge rule, in core and in the placement statement, on $name", (target) => {
  let store: SqlStore;
  let organisationId: string;
  let otherOrganisationId: string;
  beforeAll(async () => {
    store = await target.open();
    organisationId = await newOrganisation(store, "Regel BV");
    otherOrganisationId = await newOrganisation(store, "Elders BV");
  });
  afterAll(() => closeTarget(target, store));

  it("builds the statement's ORDER BY from core's keys", () => {
    expect(openCaseOrderBy("f")).toBe('f.created_at, f.case_number COLLATE "C"');
    expect(
      placementStatement(order(0, { customerNumbers: ["K"] }), { mergeAllowed: false, year: 2026 }).text,
    ).toContain('ORDER BY created_at, case_number COLLATE "C" LIMIT 1');
  });

  function order(index: number, o: Row["order"]): CasePlacementInput {
    return {
      ...caseOrderInput({
        orderId: `ord_rule${String(index).padStart(12, "0")}`,
        organisationId,
        creditor: { id: o.creditorId ?? null, name: "Regel BV" },
        reference: `R-${index}`,
        at: new Date("2026-11-21T10:00:00Z"),
        debtors: o.customerNumbers.map((n, i) =>
          businessDebtor(`Debiteur ${i + 1} B.V.`, own(`R${index}`, n)),
        ),
      }),
      addresses: [],
      invoices: [],
    };
  }

  /** Keeps the row's cases, their case and customer numbers prefixed so that no row meets another's. */
  async function keep(prefix: string, cases: KeptCase[], orderId: string): Promise<void> {
    for (const [i, c] of cases.entries()) {
      const caseNumber = `${prefix}-${c.n}`;
      const opener = c.byThisOrder ? orderId : `${orderId}_opener${i}`;
      await store.database.query(
        `INSERT INTO cases (case_number, organisation_id, creditor_id, creditor_name, opened_by_order_id, type,
           title, status, open, created_at, updated_at)
         VALUES ($1, $2, $3, 'Regel BV', $4, 'incasso', 'Opdracht', 'Nieuw', $5, $6, $6)`,
        [
          caseNumber,
          c.elsewhere ? otherOrganisationId : organisationId,
          c.creditorId ?? null,
          opener,
          c.open ?? true,
          c.openedAt,
        ],
      );
      await store.database.query(
        `INSERT INTO case_orders (order_id, case_number, type, title, added_at)
         VALUES ($1, $2, 'incasso', 'Opdracht', $3)`,
        [opener, caseNumber, c.openedAt],
      );
      for (const [position, customerNumber] of c.customerNumbers.entries()) {
        await store.database.query(
          `INSERT INTO case_debtors (order_id, position, case_number, organisation_id, type, name, customer_number)
           VALUES ($1, $2, $3, $4, 'business', 'Debiteur B.V.', $5)`,
          [
            opener,
            position,
            caseNumber,
            c.elsewhere ? otherOrganisationId : organisationId,
            own(prefix, customerNumber),
          ],
        );
      }
    }
  }

  /** Core's path: the cases in the order's scope, then chooseOpenCase. */
  function byCore(prefix: string, row: Row, input: CasePlacementInput): Answer {
    const query = openCaseQuery(input);
    const inScope: OpenCase[] = row.cases
      .filter(
        (c) =>
          query !== undefined &&
          inMergeScope(
            {
              organisationId: c.elsewhere ? otherOrganisationId : organisationId,
              creditorId: c.creditorId ?? null,
              open: c.open ?? true,
              customerNumbers: c.customerNumbers.map((n) => own(prefix, n)),
            },
            query,
          ),
      )
      .map((c) => ({
        caseNumber: `${prefix}-${c.n}`,
        openedAt: new Date(c.openedAt),
        openedByOrderId: c.byThisOrder ? input.orderId : `${input.orderId}_opener`,
      }));
    const choice = chooseOpenCase(inScope, input.orderId);
    return answer({ join: choice.join?.caseNumber, own: choice.own?.caseNumber, others: choice.others });
  }

  /** The statement's path: the lock and the placement statement, rolled back afterwards. */
  async function byStatement(input: CasePlacementInput): Promise<Answer> {
    const undo = new Error("roll back");
    let found: Answer | undefined;
    await store.database
      .transaction(async (tx) => {
        const lock = placementLock(input);
        await tx.query(lock.text, lock.params);
        const statement = placementStatement(input, { mergeAllowed: false, year: 2026 });
        const placed = readPlacement((await tx.query(statement.text, statement.params)).rows[0]);
        const others = placed.openCases.filter((n) => n !== placed.caseNumber);
        if (placed.outcome === "deferred") found = answer({ join: placed.caseNumber, others });
        else if (placed.outcome === "repeated" && placed.caseNew)
          found = answer({ own: placed.caseNumber, others: [] });
        else if (placed.outcome === "opened") found = answer({ others: [] });
        else throw new Error(`unexpected outcome ${placed.outcome}`);
        throw undo;
      })
      .catch((error: unknown) => {
        if (error !== undo) throw error;
      });
    if (found === undefined) throw new Error("the statement gave no answer");
    return found;
  }

  const answer = (a: Answer): Answer => ({
    ...(a.join === undefined ? {} : { join: a.join }),
    ...(a.own === undefined ? {} : { own: a.own }),
    others: a.others,
  });

  it.each(rows.map((row, index) => ({ ...row, index })))("$name", async (row) => {
    const prefix = `R${row.index}`;
    const input = order(row.index, row.order);
    await keep(prefix, row.cases, input.orderId);
    const expected = answer({
      join: row.answer.join && `${prefix}-${row.answer.join}`,
      own: row.answer.own && `${prefix}-${row.answer.own}`,
      others: row.answer.others.map((n) => `${prefix}-${n}`),
    });
    expect(byCore(prefix, row, input)).toEqual(expected);
    expect(await byStatement(input)).toEqual(expected);
  });
});
