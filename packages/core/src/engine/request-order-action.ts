import type { z } from "zod";
import { randomBytes, toHex } from "../internal/bytes.js";
import type { OrderActionSchema } from "../orders/control-request-schemas.js";
import { type ControlRequest, validateControlRequest } from "../orders/validate-control-request.js";
import type { Principal } from "../principal.js";
import { amsterdamDate } from "./internal/amsterdam-date.js";
import { findVisibleOrder } from "./internal/find-visible-order.js";
import { toOrderAction } from "./internal/order-action-view.js";
import type { OrderEngine } from "./order-engine.js";
import { OrderEngineError } from "./order-engine-error.js";
import { afterActionStored, handlersPending } from "./order-handlers.js";
import { type OrderRuleRefusal, runActionRules } from "./order-rules.js";

/**
 * The spec's OrderAction object (response 202 of the three control requests).
 *
 * @example
 * const a: OrderAction = await requestOrderAction(engine, principal, orderId, "hold");
 */
export type OrderAction = z.output<typeof OrderActionSchema>;

const euro = (cents: number) =>
  `€ ${(cents / 100).toLocaleString("nl-NL", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

// Instructions for the handler, Dutch like the message.
function instructionsFor(request: ControlRequest, orderId: string): string {
  const reason = request.reason === null ? "" : `\nToelichting van de opdrachtgever: ${request.reason}`;
  switch (request.action) {
    case "hold":
      return `De opdrachtgever vraagt de incasso van opdracht ${orderId} te pauzeren.${reason}`;
    case "withdraw":
      return `De opdrachtgever vraagt opdracht ${orderId} in te trekken. Beoordeel het verzoek, ook de gevolgen voor de no-cure-no-pay-afspraak.${reason}`;
    case "payments":
      return `De debiteur heeft ${euro(request.amount_cents)} rechtstreeks aan de opdrachtgever betaald, ontvangen op ${request.payment_date} (opdracht ${orderId}). Boek de betaling en bereken saldo en kosten opnieuw.${reason}`;
  }
}

/**
 * Options of {@link requestOrderAction}.
 *
 * @example
 * const options: RequestOrderActionOptions = { now: new Date(), actionId: deriveActionId({ organisationId, mode, idempotencyKey, fingerprint }) };
 */
export interface RequestOrderActionOptions {
  /** The time of the request; default now. Decides "today" (Europe/Amsterdam) for `payment_date`. */
  now?: Date;
  /**
   * The action id (and task id) to use; default a new random one. Pass {@link deriveActionId} of
   * the request's Idempotency-Key so a retry reuses the id (decision orders-control-idempotency):
   * when the order has an action with this id already, it is answered as stored and no task is
   * placed again; a task placed whose answer was lost is not placed twice, since the case system
   * is idempotent on the task id.
   */
  actionId?: string;
  /**
   * Called when the action with `actionId` was stored already and is answered as it was: the answer
   * is a replay of an earlier request's, and the HTTP layer says so with `Idempotency-Replayed: true`.
   */
  onAlreadyStored?: () => void;
}

/**
 * POST /orders/{orderId}/hold, /withdraw and /payments as a call: places a task with instructions
 * on the order's case for a handler and lists the request on the order with status `requested`
 * (spec States and transitions). The API changes nothing financial itself. `body` is the request
 * body as sent (`undefined` when there was none): hold and withdraw take an optional `reason` (max
 * 1000); payments needs `amount_cents` >= 1, `payment_date` defaults to today (Europe/Amsterdam).
 *
 * The order is looked up first (404), then its case and the key's mode (409), then the body (422);
 * the task is placed before the action is stored, so a case-system failure (502) leaves nothing
 * behind. With `options.actionId` (derived from an Idempotency-Key) an action stored under that id
 * is answered as stored.
 *
 * @throws {OrderEngineError} `not_found` (404), `order_has_no_case` (409, a test-mode order),
 * `test_key_on_live_order` (409), `validation_error` (422), `upstream_error` (502); {@link OrderRuleRefusal}
 * (422, a code of the host's own) when a host's rule refuses the request (decision orders-host-hooks).
 * @example
 * const action = await requestOrderAction(engine, principal, "ord_0123456789abcdef", "payments", { amount_cents: 5000 });
 * action.status; // "requested"
 */
export async function requestOrderAction(
  engine: OrderEngine,
  principal: Principal,
  orderId: string,
  action: "hold" | "withdraw" | "payments",
  body?: unknown,
  options: RequestOrderActionOptions = {},
): Promise<OrderAction> {
  const now = options.now ?? new Date();
  const record = await findVisibleOrder(engine, principal, orderId);
  if (record.caseNumber === null) {
    // Spec Errors: 409 "hold, withdraw or payments on an order without a case (test mode)"; the code
    // is ours (decision orders-engine-control-requests).
    throw new OrderEngineError(
      "order_has_no_case",
      "This order has no case (it was submitted with a test key), so there is nothing to steer.",
    );
  }
  if (principal.mode === "test" && record.mode === "live") {
    // A test key tries an integration and changes nothing (spec Authentication: it "creates no
    // case"); with visibility `organisation` it can read live orders, but never steer them.
    throw new OrderEngineError(
      "test_key_on_live_order",
      "A test key cannot steer a live order; send the request with a live key.",
    );
  }
  const validation = validateControlRequest(action, body, { today: amsterdamDate(now) });
  if (!validation.ok) {
    throw new OrderEngineError("validation_error", "The request has invalid fields; see errors.", {
      errors: validation.errors,
    });
  }
  const request = validation.request;
  if (options.actionId !== undefined) {
    // A retry of a request whose answer was lost (or whose Idempotency-Key record was not kept):
    // the action stored under the derived id is answered as it was, and no task is placed again.
    const stored = (await engine.store.orders.listActions(principal.organisationId, record.id)).find(
      (a) => a.id === options.actionId,
    );
    if (stored !== undefined) {
      options.onAlreadyStored?.();
      return afterActionStored(engine, toOrderAction(stored, record.caseNumber), principal, true, stored.id);
    }
  }
  // The host's rules (decision orders-host-hooks): after validation, before the task is placed.
  await runActionRules(engine.hooks, {
    orderId: record.id,
    caseNumber: record.caseNumber,
    request,
    principal,
    now,
  });
  const id = options.actionId ?? `act_${toHex(randomBytes(8))}`;
  const instructions = instructionsFor(request, record.id);
  const amountCents = request.action === "payments" ? request.amount_cents : null;
  const paymentDate = request.action === "payments" ? request.payment_date : null;
  try {
    await engine.caseSystem.addTask({
      taskId: id,
      orderId: record.id,
      organisationId: principal.organisationId,
      caseNumber: record.caseNumber,
      action,
      instructions,
      reason: request.reason,
      amountCents,
      paymentDate,
      at: now,
    });
  } catch (error) {
    engine.logger.warn("case system failed to take a control task", {
      orderId: record.id,
      action,
      error: error instanceof Error ? error.message : String(error),
    });
    throw new OrderEngineError(
      "upstream_error",
      "The case system could not take the request; nothing was stored. Retry later.",
      {
        cause: error,
      },
    );
  }
  const stored = await engine.store.orders.addAction(
    {
      id,
      orderId: record.id,
      organisationId: principal.organisationId,
      action,
      status: "requested",
      reason: request.reason,
      amountCents,
      paymentDate,
      createdAt: now,
    },
    // With the host's handlers pending, in the same statement (decision orders-host-hooks).
    handlersPending(engine, "action", principal),
  );
  return afterActionStored(engine, toOrderAction(stored, record.caseNumber), principal, false, stored.id);
}
