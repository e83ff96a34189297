import type { CaseCreditor } from "../case-system-port.js";
import type { FieldError } from "../orders/field-error.js";
import type { NormalisedOrder } from "../orders/normalised-order.js";
import type { Order } from "../orders/order-schema.js";
import type { ControlRequest } from "../orders/validate-control-request.js";
import type { Principal } from "../principal.js";
import type { OrderAction } from "./request-order-action.js";

// The types of a host's order hooks (decision orders-host-hooks). Running them is in
// order-rules.ts (before placement) and order-handlers.ts (after the order is stored).

/**
 * What an order rule sees: the order after every check of the spec (fields, creditor,
 * attachments), before anything is placed or stored.
 *
 * @example
 * const input: OrderRuleInput = { order, principal, creditor: { id: null, name: "Acme BV" }, now: new Date() };
 */
export interface OrderRuleInput {
  /** The validated order: amounts in cents, dates as `YYYY-MM-DD`, absent optional fields null. */
  order: NormalisedOrder;
  /** Who submits it; `mode` `test` orders run the rules too. */
  principal: Principal;
  /** The creditor the order is for (`id` null: the principal's own). */
  creditor: CaseCreditor;
  /** The time of the submission. */
  now: Date;
}

/**
 * A refusal by a host's rule: 422 with the host's own `code`, which must be declared in
 * {@link OrderHooks.codes}, its `message` as the problem's `detail`, and field failures if any.
 *
 * @example
 * const refusal: RuleRefusal = { code: "amount_below_minimum", message: "Claims under € 25 are not taken." };
 */
export interface RuleRefusal {
  code: string;
  message: string;
  errors?: FieldError[];
}

/**
 * A warning a host's rule adds to the order (spec Warning; new codes are a non-breaking addition
 * under the spec's Versioning rules, and clients must tolerate them).
 *
 * @example
 * const w: RuleWarning = { code: "invoice_sent_before", message: "Factuur F-1 is eerder ingediend.", invoice_number: "F-1" };
 */
export interface RuleWarning {
  code: string;
  message: string;
  invoice_number?: string | null;
}

/**
 * What an order rule decides: nothing (the order goes on), a refusal, or warnings.
 *
 * @example
 * const verdict: OrderRuleVerdict = { warnings: [{ code: "large_claim", message: "Grote vordering." }] };
 */
export interface OrderRuleVerdict {
  refuse?: RuleRefusal;
  warnings?: RuleWarning[];
}

/**
 * A host's rule for POST /orders, run after validation and before placement, in the order given;
 * the first refusal ends the run. What it throws reaches the client as the API maps any error (an
 * `ApiError` or `IncassoError` by its status, anything else 500 `internal_error`, logged).
 *
 * @example
 * const minimum: OrderRule = ({ order }) =>
 *   order.invoices.some((i) => i.amount_cents < 2500)
 *     ? { refuse: { code: "amount_below_minimum", message: "Claims under € 25 are not taken." } }
 *     : undefined;
 */
export type OrderRule = (
  input: OrderRuleInput,
) => OrderRuleVerdict | undefined | Promise<OrderRuleVerdict | undefined>;

/**
 * What a control-request rule sees: the order it steers (found and visible to the principal, with
 * a case) and the validated request, before the task is placed.
 *
 * @example
 * const input: ActionRuleInput = { orderId: "ord_0123456789abcdef", caseNumber: "2026-000001",
 *   request: { action: "hold", reason: null }, principal, now: new Date() };
 */
export interface ActionRuleInput {
  orderId: string;
  caseNumber: string;
  request: ControlRequest;
  principal: Principal;
  now: Date;
}

/**
 * A host's rule for hold, withdraw and payments, run after validation and before the task is
 * placed; it may refuse (the spec's OrderAction has no warnings, so it adds none).
 *
 * @example
 * const noWithdraw: ActionRule = ({ request }) =>
 *   request.action === "withdraw" ? { refuse: { code: "withdraw_by_phone", message: "Call us to withdraw." } } : undefined;
 */
export type ActionRule = (
  input: ActionRuleInput,
) => { refuse?: RuleRefusal } | undefined | Promise<{ refuse?: RuleRefusal } | undefined>;

/**
 * An order stored: the spec's Order object as the client got it, and whether this is a retry that
 * found it stored already (the handlers then run again: at least once).
 *
 * @example
 * const event: OrderPlacedEvent = { order, principal, replayed: false };
 */
export interface OrderPlacedEvent {
  order: Order;
  principal: Principal;
  replayed: boolean;
}

/**
 * A control request stored: the spec's OrderAction object, the order's id, and whether this is a
 * retry that found it stored already.
 *
 * @example
 * const event: ActionRequestedEvent = { action, orderId: "ord_0123456789abcdef", principal, replayed: false };
 */
export interface ActionRequestedEvent {
  action: OrderAction;
  orderId: string;
  principal: Principal;
  replayed: boolean;
}

/**
 * A host's handler, run after the order (or control request) is stored and after the client's
 * answer is on its way: it never fails or delays the request; what it throws is logged.
 *
 * @example
 * const notify: AfterHandler<OrderPlacedEvent> = async ({ order }) => { await crm.note(order.id); };
 */
export type AfterHandler<E> = (event: E) => void | Promise<void>;

/**
 * A host's order hooks (decision orders-host-hooks). Several sets (one per plugin) may be given;
 * their rules and handlers run in the order given.
 *
 * @example
 * const hooks: OrderHooks = {
 *   codes: { amount_below_minimum: "An invoice is under the agency's minimum of € 25." },
 *   orderRules: [minimum],
 *   orderPlaced: [async ({ order }) => console.log("placed", order.id)],
 * };
 */
export interface OrderHooks {
  /**
   * The codes the rules refuse with, each with when it is sent: they join the API's code table and
   * the OpenAPI document (status 422). Lower-case letters, digits and `_`, and none of the API's own.
   */
  codes?: Readonly<Record<string, string>>;
  /** Rules of POST /orders. */
  orderRules?: readonly OrderRule[];
  /** Handlers of a stored order (live and test). */
  orderPlaced?: readonly AfterHandler<OrderPlacedEvent>[];
  /** Rules of hold, withdraw and payments. */
  actionRules?: readonly ActionRule[];
  /** Handlers of a stored control request. */
  actionRequested?: readonly AfterHandler<ActionRequestedEvent>[];
}
