import type { CaseSystem } from "../../case-system-port.js";
import type { Logger } from "../../logger.js";
import type { Principal } from "../../principal.js";
import type { HandlersPendingOption, IncassoStore, OrderRecord } from "../../store-port.js";
import { StoreUnavailableError } from "../../store-unavailable.js";
import type { OrderEngine } from "../order-engine.js";

/** The message of the 503 when the order's earlier placement is being withdrawn. */
const WITHDRAWING =
  "An earlier attempt of this order is being undone; nothing was stored. Retry in a few seconds.";

/**
 * Withdraws the placement of a claimed intent through the port and removes the intent. A case
 * system without `withdrawPlacement` cannot undo it: an error names the order for someone to
 * remove by hand, and the intent goes (it would only be logged again).
 *
 * @example
 * await withdrawClaimed({ store, caseSystem, logger }, { orderId, organisationId, createdAt });
 */
export async function withdrawClaimed(
  parts: {
    store: Pick<IncassoStore, "placementIntents">;
    caseSystem: CaseSystem;
    logger: Pick<Logger, "warn" | "error">;
  },
  intent: { orderId: string; organisationId: string },
): Promise<"withdrawn" | "unsupported"> {
  const { caseSystem } = parts;
  const withdraw = caseSystem.withdrawPlacement;
  if (withdraw === undefined) {
    parts.logger.error(
      "a placement without its order cannot be undone: the case system has no withdrawPlacement",
      {
        orderId: intent.orderId,
        organisationId: intent.organisationId,
      },
    );
    await parts.store.placementIntents.remove(intent.orderId);
    return "unsupported";
  }
  await withdraw.call(caseSystem, { orderId: intent.orderId, organisationId: intent.organisationId });
  await parts.store.placementIntents.remove(intent.orderId);
  return "withdrawn";
}

/**
 * The placement of one live order with its intent (decision orders-engine-placement-intents):
 * recorded before the case system is called, ended atomically with the order row.
 * When a step between fails, an order without an Idempotency-Key has its placement withdrawn at
 * once (its client's retry is a new order), when the database lets it; otherwise the placement
 * reconciler does it after its grace period, which leaves a keyed order's retry the time to
 * complete it.
 *
 * @example
 * const intent = await beginPlacement(engine, principal, orderId, { keyed: false });
 * const placed = await intent.run(() => placeOnCase(engine, input));
 * const { order } = await intent.store(record);
 */
export async function beginPlacement(
  engine: OrderEngine,
  principal: Principal,
  orderId: string,
  options: { keyed: boolean },
): Promise<{
  run<T>(step: () => Promise<T>): Promise<T>;
  store(
    record: OrderRecord,
    options?: HandlersPendingOption,
  ): Promise<{ order: OrderRecord; created: boolean }>;
}> {
  const { store } = engine;
  // The clock of the intent is the real one: the reconciler compares it with its own.
  const recorded = await store.placementIntents.record({
    orderId,
    organisationId: principal.organisationId,
    createdAt: new Date(),
  });
  if (!recorded) throw new StoreUnavailableError(WITHDRAWING, { retryAfterSeconds: 2 });

  const abandon = async (error: unknown): Promise<never> => {
    if (!options.keyed) {
      try {
        // Claimed only when the order row is not stored (the claim and the row's transaction
        // exclude each other), so a commit whose answer was lost is never undone.
        const claimed = await store.placementIntents.claim(orderId, new Date());
        if (claimed !== undefined) await withdrawClaimed({ ...engine, logger: withError(engine) }, claimed);
      } catch (undo) {
        engine.logger.warn("placement not withdrawn yet; the placement reconciler will", {
          orderId,
          error: undo instanceof Error ? undo.message : String(undo),
        });
      }
    }
    throw error;
  };

  return {
    async run(step) {
      try {
        return await step();
      } catch (error) {
        return abandon(error);
      }
    },
    async store(record, pending) {
      try {
        const stored = await store.placementIntents.endWithOrder(record, pending);
        if (stored === undefined) throw new StoreUnavailableError(WITHDRAWING, { retryAfterSeconds: 2 });
        return { order: stored, created: true };
      } catch (error) {
        return abandon(error);
      }
    },
  };
}

/**
 * Stores the order row: with the end of its placement's intent when it has one (a live order),
 * plainly otherwise (a test order, placed nowhere).
 *
 * @example
 * const { order } = await storeOrderRow(engine, intent, handlersPending(engine, "order", principal), record);
 */
export function storeOrderRow(
  engine: OrderEngine,
  intent:
    | {
        store(
          record: OrderRecord,
          options?: HandlersPendingOption,
        ): Promise<{ order: OrderRecord; created: boolean }>;
      }
    | undefined,
  pending: HandlersPendingOption | undefined,
  record: OrderRecord,
): Promise<{ order: OrderRecord; created: boolean }> {
  return intent === undefined ? engine.store.orders.insert(record, pending) : intent.store(record, pending);
}

// The engine's logger only warns; an order that cannot be undone is worth an error where the
// logger has one.
function withError(engine: OrderEngine): Pick<Logger, "warn" | "error"> {
  const logger = engine.logger as Partial<Logger> & Pick<Logger, "warn">;
  return { warn: logger.warn.bind(logger), error: (logger.error ?? logger.warn).bind(logger) };
}
