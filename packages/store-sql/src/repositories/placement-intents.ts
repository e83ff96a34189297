import type { PlacementIntent, PlacementIntentRepository } from "@incasso/core";
import type { Executor } from "../database.js";
import { toDate, ts } from "../internal/sql-errors.js";
import { orderInsertStatement, storedOrder } from "./orders.js";

interface IntentRow {
  order_id: string;
  organisation_id: string;
  created_at: Date | string;
}

const intent = (row: IntentRow): PlacementIntent => ({
  orderId: row.order_id,
  organisationId: row.organisation_id,
  createdAt: toDate(row.created_at),
});

/**
 * Placement intents on SQL (decision orders-engine-placement-intents). Each operation is one
 * statement; `endWithOrder` ends the intent and inserts the order row in one, so they commit
 * together. A claim and an end exclude each other through `claimed_at`: the
 * statement of one sees the row the other wrote (or waits for its lock) and matches nothing.
 *
 * @example
 * const intents = placementIntentRepository(db);
 * await intents.record({ orderId: "ord_0123456789abcdef", organisationId: "org_0123456789abcdef", createdAt: new Date() });
 */
export function placementIntentRepository(db: Executor): PlacementIntentRepository {
  return {
    async record(input) {
      // A repeat (a retry with the same Idempotency-Key) renews an unclaimed intent's time, so the
      // reconciler gives the retry its full grace; a claimed one is being withdrawn.
      const { rows } = await db.query<{ order_id: string }>(
        `INSERT INTO placement_intents AS p (order_id, organisation_id, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (order_id) DO UPDATE SET created_at = EXCLUDED.created_at WHERE p.claimed_at IS NULL
         RETURNING order_id`,
        [input.orderId, input.organisationId, ts(input.createdAt)],
      );
      return rows.length === 1;
    },
    async end(orderId) {
      const { rows } = await db.query<{ order_id: string }>(
        "DELETE FROM placement_intents WHERE order_id = $1 AND claimed_at IS NULL RETURNING order_id",
        [orderId],
      );
      return rows.length === 1;
    },
    async endWithOrder(order, options) {
      const insert = orderInsertStatement(order, { endingIntent: true, ...options });
      const { rows } = await db.query<{ id: string }>(insert.text, insert.params);
      return rows[0] === undefined ? undefined : storedOrder(order);
    },
    async claim(orderId, at) {
      const { rows } = await db.query<IntentRow>(
        `UPDATE placement_intents SET claimed_at = $2 WHERE order_id = $1 AND claimed_at IS NULL
         RETURNING order_id, organisation_id, created_at`,
        [orderId, ts(at)],
      );
      return rows[0] === undefined ? undefined : intent(rows[0]);
    },
    async claimStale(before, at, limit) {
      const { rows } = await db.query<IntentRow>(
        `UPDATE placement_intents SET claimed_at = $2 WHERE order_id IN (
           SELECT order_id FROM placement_intents
           WHERE (claimed_at IS NULL AND created_at < $1) OR claimed_at < $1
           ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING order_id, organisation_id, created_at`,
        [ts(before), ts(at), limit],
      );
      return rows.map(intent).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    },
    async remove(orderId) {
      await db.query("DELETE FROM placement_intents WHERE order_id = $1 AND claimed_at IS NOT NULL", [
        orderId,
      ]);
    },
  };
}
