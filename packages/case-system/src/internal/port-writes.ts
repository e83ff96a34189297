import { amsterdamDate } from "@incasso/wik";
import type { BuiltInCaseSystem } from "../built-in-case-system.js";
import type { CaseChange } from "../case-change.js";
import { CaseSystemError } from "../errors.js";
import { notOnCase } from "./case-errors.js";
import * as q from "./case-queries.js";
import { type CaseSystemContext, changeOf, HANDLER, ITEM_IN_PARTS, SINGLE } from "./case-writes.js";
import { placementChanges, toCasePlacement } from "./placement.js";
import { placementLock, placementStatement, readPlacement } from "./placement-queries.js";

// An attachment or task of an order: refused when the order is not on the case; a repeat
// ("exists") changes nothing, since every write of the port is idempotent on the order id.
function itemWritten(
  owner: q.Owner | "exists" | undefined,
  input: { orderId: string; caseNumber: string },
  change: (owner: q.Owner) => CaseChange,
): { result: undefined; changes: CaseChange[] } {
  if (owner === undefined) throw notOnCase(input.orderId, input.caseNumber);
  return { result: undefined, changes: owner === "exists" ? [] : [change(owner)] };
}

/**
 * The writes of the CaseSystem port the order engine makes: the placement of an order on a case,
 * then its attachments and its control request's task. Each is idempotent on the order id.
 *
 * @example
 * const { placeOnCase } = portWrites(caseSystemContext({ store }));
 * const placement = await placeOnCase(input); // { caseNumber: "2026-000001", caseNew: true, otherOpenCases: [] }
 */
export function portWrites(
  ctx: CaseSystemContext,
): Pick<BuiltInCaseSystem, "placeOnCase" | "storeAttachment" | "addTask"> {
  const { db, write, clock, listener, events } = ctx;
  return {
    placeOnCase: async (input) => {
      const missing = input.addresses.filter((a) => input.debtors[a.debtorIndex] === undefined);
      if (missing.length > 0) {
        throw new CaseSystemError(
          "order_not_on_case",
          `Order ${input.orderId} has no debtor ${missing.map((a) => a.debtorIndex).join(", ")}.`,
        );
      }
      // A new case number starts with the year in the Netherlands (decision case-system-case-numbers).
      const year = Number(amsterdamDate(input.at).slice(0, 4));
      // Without a listener one batch does it: BEGIN, the lock, the placement and COMMIT, on
      // PostgreSQL in one write and one round trip. With webhook events on, the batch leaves an
      // order that joins a case alone (its invoices send invoice.updated), and the transaction
      // below places it with its events.
      if (listener === undefined) {
        const [, placed] = await db.batch([
          placementLock(input),
          placementStatement(input, { mergeAllowed: !events, year }),
        ]);
        const result = readPlacement(placed?.rows[0]);
        if (result.outcome !== "deferred") return toCasePlacement(result);
      }
      return write(HANDLER, async (tx) => {
        const lock = placementLock(input);
        const place = placementStatement(input, { mergeAllowed: true, year });
        // Sent together; the server runs the lock first and the placement once it holds it.
        const [, placed] = await Promise.all([
          tx.query(lock.text, lock.params),
          tx.query<Record<string, unknown>>(place.text, place.params),
        ]);
        const result = readPlacement(placed.rows[0]);
        return { result: toCasePlacement(result), changes: placementChanges(input, result) };
      });
    },

    storeAttachment: (input) =>
      // A file stored in parts takes several statements, and so a transaction.
      write(q.attachmentNeedsParts(db, input.bytes) ? ITEM_IN_PARTS : SINGLE, async (tx) => {
        const at = clock();
        const owner = await q.storeAttachment(tx, { ...input, at });
        return itemWritten(owner, input, (o) => ({
          ...changeOf(o, at),
          kind: "attachment_stored",
          filename: input.filename,
        }));
      }),

    addTask: (input) =>
      write(SINGLE, async (tx) => {
        const owner = await q.addTask(tx, input);
        return itemWritten(owner, input, (o) => ({
          ...changeOf(o, input.at),
          kind: "task_added",
          taskId: input.taskId,
          action: input.action,
        }));
      }),
  };
}
