import type { PlacementWithdrawalInput } from "@incasso/core";
import type { CaseSystemContext } from "./case-writes.js";

// What an order puts on its case, the parts before the whole (case_attachment_parts refers to
// case_attachments). Its letter job and letter come only after the order row is stored
// (`orderPlaced`), so a withdrawn order has none; they are removed too should one exist.
const ORDER_ROWS = [
  "case_attachment_parts",
  "case_attachments",
  "case_invoices",
  "case_debtors",
  "case_notes",
  "case_letter_jobs",
  "case_letters",
  "case_orders",
] as const;

/**
 * The port's `withdrawPlacement` for the built-in case system (decision
 * orders-engine-placement-intents): in one transaction, locks the order's case, removes every row
 * the order wrote, and removes the case too when the order opened it and nothing else is on it (no
 * other order, task, payment, letter or note). A repeat, or an order that was never placed, finds
 * nothing and changes nothing. No webhook event: the order was never answered to its client.
 *
 * @example
 * await withdrawPlacement(ctx, { orderId: "ord_0123456789abcdef", organisationId: "org_0123456789abcdef" });
 */
export async function withdrawPlacement(
  ctx: CaseSystemContext,
  input: PlacementWithdrawalInput,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    // The case row locked, so no order joins it while its last order leaves (a joining
    // placement's reference to it waits for this transaction).
    const { rows } = await tx.query<{ case_number: string; opened_by_order_id: string }>(
      `SELECT c.case_number, c.opened_by_order_id FROM case_orders o
       JOIN cases c ON c.case_number = o.case_number
       WHERE o.order_id = $1 AND c.organisation_id = $2
       FOR UPDATE OF c`,
      [input.orderId, input.organisationId],
    );
    const found = rows[0];
    if (found === undefined) return;
    for (const table of ORDER_ROWS) {
      await tx.query(`DELETE FROM ${table} WHERE order_id = $1`, [input.orderId]);
    }
    if (found.opened_by_order_id !== input.orderId) return;
    await tx.query(
      `DELETE FROM cases c WHERE c.case_number = $1
       AND NOT EXISTS (SELECT 1 FROM case_orders WHERE case_number = c.case_number)
       AND NOT EXISTS (SELECT 1 FROM case_tasks WHERE case_number = c.case_number)
       AND NOT EXISTS (SELECT 1 FROM case_payments WHERE case_number = c.case_number)
       AND NOT EXISTS (SELECT 1 FROM case_letters WHERE case_number = c.case_number)
       AND NOT EXISTS (SELECT 1 FROM case_notes WHERE case_number = c.case_number)`,
      [found.case_number],
    );
  });
}
