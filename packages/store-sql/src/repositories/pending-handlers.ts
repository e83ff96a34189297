import type { PendingHandlerRepository, PendingHandlerRun, Principal } from "@incasso/core";
import type { Executor } from "../database.js";
import { toDate, ts } from "../internal/sql-errors.js";

interface RunRow {
  kind: PendingHandlerRun["kind"];
  id: string;
  order_id: string;
  organisation_id: string;
  principal: Principal | string;
  created_at: Date | string;
}

const run = (row: RunRow): PendingHandlerRun => ({
  kind: row.kind,
  id: row.id,
  orderId: row.order_id,
  organisationId: row.organisation_id,
  // `json` comes back parsed from pg and PGlite alike; a driver that hands back text is read too.
  principal: typeof row.principal === "string" ? (JSON.parse(row.principal) as Principal) : row.principal,
  createdAt: toDate(row.created_at),
});

/**
 * Pending handler runs on SQL (decision orders-host-hooks). A run is written by the statement that
 * stores its order or control request (`orders.insert`, `placementIntents.endWithOrder`,
 * `orders.addAction`); a claim sets `claimed_at` under `FOR UPDATE SKIP LOCKED`, so two sweepers
 * never claim one run.
 *
 * @example
 * const runs = await pendingHandlerRepository(db).claimStale(before, new Date(), 100, ["order"]);
 */
export function pendingHandlerRepository(db: Executor): PendingHandlerRepository {
  return {
    async claimStale(before, at, limit, kinds) {
      if (kinds.length === 0) return [];
      const { rows } = await db.query<RunRow>(
        `UPDATE pending_handlers SET claimed_at = $2 WHERE (kind, id) IN (
           SELECT kind, id FROM pending_handlers
           WHERE kind = ANY($4::text[]) AND ((claimed_at IS NULL AND created_at < $1) OR claimed_at < $1)
           ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING kind, id, order_id, organisation_id, principal, created_at`,
        [ts(before), ts(at), limit, [...kinds]],
      );
      return rows.map(run).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    },
    async remove(kind, id) {
      await db.query("DELETE FROM pending_handlers WHERE kind = $1 AND id = $2", [kind, id]);
    },
  };
}
