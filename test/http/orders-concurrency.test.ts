import { randomBytes } from "node:crypto";
import { openCaseSystemStore } from "@incasso/case-system";
import { issueApiKey } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { business, count, json, orderBody, ordersApi } from "./orders-fixtures.js";

// Spec: "A follow-up invoice with the same customer_number for a debtor who already has an open
// case is added to that open case", also when the two orders arrive at the same moment (decision
// case-system-port-one-call-placement). On PGlite, and on PostgreSQL whenever TEST_DATABASE_URL is
// set, with the orders of each pair sent through two APIs on two stores of their own (two
// connection pools on one database, as two API processes are).
const url = process.env.TEST_DATABASE_URL;
const targets: { name: string; open: () => Promise<{ stores: SqlStore[]; schema?: string }> }[] = [
  {
    name: "PGlite, one API",
    open: async () => {
      const store = await openCaseSystemStore();
      return { stores: [store, store] };
    },
  },
];
if (url) {
  targets.push({
    name: "PostgreSQL, two APIs",
    open: async () => {
      const schema = `orders_race_${randomBytes(6).toString("hex")}`;
      const first = await openCaseSystemStore({ databaseUrl: url, schema });
      const second = await openCaseSystemStore({ databaseUrl: url, schema });
      return { stores: [first, second], schema };
    },
  });
}

const PAIRS = 20;

describe.each(targets)("simultaneous orders for one customer number on $name", (target) => {
  let stores: SqlStore[];
  let schema: string | undefined;
  let apis: ReturnType<typeof ordersApi>["api"][];
  let live: string;
  beforeAll(async () => {
    ({ stores, schema } = await target.open());
    apis = stores.map((store) => ordersApi(store).api);
    live = (
      await issueApiKey(stores[0] as SqlStore, {
        organisation: "Race BV",
        mode: "live",
        perMinute: 10_000,
        perDay: 10_000,
      })
    ).key;
  });
  afterAll(async () => {
    const [first, second] = stores;
    if (schema) await first?.database.query(`DROP SCHEMA ${schema} CASCADE`);
    await first?.close();
    if (second !== first) await second?.close();
  });

  const post = (i: number, customer: string, invoice: string) =>
    (apis[i % 2] as (typeof apis)[number]).fetch(
      new Request(
        "http://x/api/v1/orders",
        json(
          live,
          orderBody({
            type: "incasso",
            debtors: [business(customer)],
            invoices: [
              {
                invoice_number: invoice,
                invoice_date: "2026-09-01",
                payment_term_days: 14,
                amount_cents: 125000,
              },
            ],
          }),
        ),
      ),
    );

  it(`puts both orders of each of ${PAIRS} simultaneous pairs on one case: one opens it, one joins it`, async () => {
    const tag = randomBytes(3).toString("hex");
    const answers = await Promise.all(
      Array.from({ length: PAIRS * 2 }, (_, i) => post(i, `RACE-${tag}-${i >> 1}`, `F-${i}`)),
    );
    const orders = await Promise.all(
      answers.map(async (res) => {
        expect(res.status).toBe(201);
        return (await res.json()) as {
          case: { case_number: string; new: boolean };
          warnings: { code: string }[];
        };
      }),
    );
    for (let p = 0; p < PAIRS; p++) {
      const pair = [orders[2 * p], orders[2 * p + 1]];
      expect(pair[0]?.case.case_number).toBe(pair[1]?.case.case_number);
      const joined = pair.filter((o) => o?.case.new === false);
      expect(joined).toHaveLength(1);
      expect(joined[0]?.warnings.map((w) => w.code)).toEqual(["attached_to_existing_case"]);
    }
    const store = stores[0] as SqlStore;
    expect(
      await count(
        store,
        "SELECT count(DISTINCT case_number) AS n FROM case_debtors WHERE customer_number LIKE $1",
        [`RACE-${tag}-%`],
      ),
    ).toBe(PAIRS);
    // Each case holds both orders' invoices; the joining order's invoice sent invoice.updated.
    expect(
      await count(
        store,
        "SELECT count(*) AS n FROM case_invoices WHERE invoice_number LIKE 'F-%' AND case_number IN (SELECT case_number FROM case_debtors WHERE customer_number LIKE $1)",
        [`RACE-${tag}-%`],
      ),
    ).toBe(PAIRS * 2);
    expect(
      await count(
        store,
        "SELECT count(*) AS n FROM webhook_events WHERE type = 'invoice.updated' AND payload::json->'data'->>'case_number' IN (SELECT case_number FROM case_debtors WHERE customer_number LIKE $1)",
        [`RACE-${tag}-%`],
      ),
    ).toBe(PAIRS);
  });
});
