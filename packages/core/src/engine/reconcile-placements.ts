import type { CaseSystem } from "../case-system-port.js";
import type { Logger } from "../logger.js";
import type { IncassoStore } from "../store-port.js";
import { startPeriodicPass } from "./internal/periodic-pass.js";
import { withdrawClaimed } from "./internal/placement-intent.js";

/**
 * How long a placement may wait for its order row before the reconciler undoes it: well past the
 * longest a request spends between the two (the case system's calls, each file, the store's
 * time-outs), and long enough for a client's retry with the same Idempotency-Key to complete the
 * order instead (decision orders-engine-placement-intents).
 */
export const PLACEMENT_GRACE_MS = 5 * 60_000;

/** How often {@link startPlacementReconciler} looks, after its first look at start. */
export const PLACEMENT_RECONCILE_INTERVAL_MS = 60_000;

/**
 * What {@link reconcilePlacements} works with.
 *
 * @example
 * const parts: PlacementReconcilerParts = { store, caseSystem, logger };
 */
export interface PlacementReconcilerParts {
  store: Pick<IncassoStore, "placementIntents">;
  caseSystem: CaseSystem;
  logger: Pick<Logger, "warn" | "error">;
  /** The clock; default the system clock. */
  now?: () => Date;
  /** Default {@link PLACEMENT_GRACE_MS}. */
  graceMs?: number;
  /** Intents per call; default 100. */
  limit?: number;
}

/**
 * Undoes placements whose order row never came (the database failed between `placeOnCase` and
 * the row, and no retry completed the order in time): claims each intent older than the grace
 * period, calls the case system's `withdrawPlacement`, and removes the intent. An intent whose
 * order was stored was ended with the row and is never claimed. A failed withdrawal is logged and
 * tried again once its claim is older than the grace period. Several processes may run it at once:
 * each intent is claimed by one.
 *
 * @example
 * const { withdrawn } = await reconcilePlacements({ store, caseSystem, logger });
 */
export async function reconcilePlacements(
  parts: PlacementReconcilerParts,
): Promise<{ withdrawn: number; failed: number; unsupported: number }> {
  const now = (parts.now ?? (() => new Date()))();
  const before = new Date(now.getTime() - (parts.graceMs ?? PLACEMENT_GRACE_MS));
  const intents = await parts.store.placementIntents.claimStale(before, now, parts.limit ?? 100);
  const counts = { withdrawn: 0, failed: 0, unsupported: 0 };
  for (const intent of intents) {
    try {
      counts[await withdrawClaimed(parts, intent)]++;
    } catch (error) {
      counts.failed++;
      parts.logger.warn("placement without its order not withdrawn; tried again later", {
        orderId: intent.orderId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return counts;
}

/**
 * A running placement reconciler.
 *
 * @example
 * const reconciler = startPlacementReconciler({ store, caseSystem, logger });
 * await reconciler.stop();
 */
export interface PlacementReconciler {
  /** Waits for a pass in progress and stops. */
  stop(): Promise<void>;
}

/**
 * Runs {@link reconcilePlacements} at once and then every `intervalMs` (default
 * {@link PLACEMENT_RECONCILE_INTERVAL_MS}) until stopped; the app's serve and worker processes run
 * one each. The timer does not keep the process alive.
 *
 * @example
 * const reconciler = startPlacementReconciler({ store, caseSystem, logger });
 */
export function startPlacementReconciler(
  parts: PlacementReconcilerParts & { intervalMs?: number },
): PlacementReconciler {
  return startPeriodicPass(() => reconcilePlacements(parts), {
    intervalMs: parts.intervalMs ?? PLACEMENT_RECONCILE_INTERVAL_MS,
    onError: (error) =>
      parts.logger.warn("placement reconciler could not look for placements without their order", {
        error: error instanceof Error ? error.message : String(error),
      }),
  });
}
