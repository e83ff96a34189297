import { IncassoError } from "../incasso-error.js";
import type { Warning } from "../orders/warnings.js";
import type {
  ActionRequestedEvent,
  ActionRule,
  ActionRuleInput,
  AfterHandler,
  OrderHooks,
  OrderPlacedEvent,
  OrderRule,
  OrderRuleInput,
  RuleRefusal,
} from "./order-hooks.js";

/**
 * The hooks of an engine, several sets merged into one, codes checked.
 *
 * @example
 * const hooks: ResolvedOrderHooks = resolveOrderHooks([{ orderRules: [minimum] }]);
 */
export interface ResolvedOrderHooks {
  /** Every declared refusal code with when it is sent. */
  readonly codes: ReadonlyMap<string, string>;
  readonly orderRules: readonly OrderRule[];
  readonly orderPlaced: readonly AfterHandler<OrderPlacedEvent>[];
  readonly actionRules: readonly ActionRule[];
  readonly actionRequested: readonly AfterHandler<ActionRequestedEvent>[];
}

// The shape of the API's own codes (spec section Errors), so a host's code reads like one.
const CODE = /^[a-z][a-z0-9_]{1,63}$/;

/**
 * Merges one or several {@link OrderHooks} into one, in the order given.
 *
 * @throws {TypeError} code `invalid_order_hooks` when a code is not lower-case letters, digits and
 *   `_` (2 to 64), is declared twice, or has no description; or a rule or handler is not a function.
 * @example
 * const hooks = resolveOrderHooks({ codes: { amount_below_minimum: "Under € 25." }, orderRules: [minimum] });
 * hooks.codes.get("amount_below_minimum"); // "Under € 25."
 */
export function resolveOrderHooks(given: OrderHooks | readonly OrderHooks[] | undefined): ResolvedOrderHooks {
  const sets: readonly OrderHooks[] = given === undefined ? [] : Array.isArray(given) ? given : [given];
  const codes = new Map<string, string>();
  const invalid = (message: string) =>
    Object.assign(new TypeError(`orderHooks: ${message}`), { code: "invalid_order_hooks" });
  for (const set of sets) {
    for (const [code, when] of Object.entries(set.codes ?? {})) {
      if (!CODE.test(code)) throw invalid(`code "${code}" must be lower-case letters, digits and _.`);
      if (codes.has(code)) throw invalid(`code "${code}" is declared twice.`);
      if (typeof when !== "string" || when.trim() === "")
        throw invalid(`code "${code}" needs a description.`);
      codes.set(code, when);
    }
  }
  const all = <F>(pick: (set: OrderHooks) => readonly F[] | undefined, name: string): F[] => {
    const list = sets.flatMap((set) => [...(pick(set) ?? [])]);
    if (list.some((f) => typeof f !== "function"))
      throw invalid(`every entry of ${name} must be a function.`);
    return list;
  };
  return {
    codes,
    orderRules: all((s) => s.orderRules, "orderRules"),
    orderPlaced: all((s) => s.orderPlaced, "orderPlaced"),
    actionRules: all((s) => s.actionRules, "actionRules"),
    actionRequested: all((s) => s.actionRequested, "actionRequested"),
  };
}

/**
 * A host rule's refusal: 422 with the host's declared code (decision orders-host-hooks). It fixes
 * its status itself, since the code is in this API's table only, not in the server's built-in one.
 *
 * @example
 * throw new OrderRuleRefusal({ code: "amount_below_minimum", message: "Claims under € 25 are not taken." });
 */
export class OrderRuleRefusal extends IncassoError<string> {
  readonly status = 422;
  /** Marks a code of the host's own, passed to the client as it is. */
  readonly hostCode = true as const;
  constructor(refusal: RuleRefusal) {
    super(refusal.code, refusal.message, refusal.errors ? { errors: refusal.errors } : {});
    this.name = "OrderRuleRefusal";
  }
}

function refusalOf(hooks: ResolvedOrderHooks, refuse: RuleRefusal): OrderRuleRefusal {
  // An undeclared code would be missing from the code table and the OpenAPI document the client
  // relies on: the host's mistake, answered 500 and logged, not passed on.
  if (!hooks.codes.has(refuse.code)) {
    throw new Error(
      `An order rule refused with code "${refuse.code}", which orderHooks.codes does not declare.`,
    );
  }
  if (typeof refuse.message !== "string" || refuse.message === "") {
    throw new Error(`An order rule refused with code "${refuse.code}" without a message.`);
  }
  return new OrderRuleRefusal(refuse);
}

function warningOf(w: { code?: unknown; message?: unknown; invoice_number?: unknown }): Warning {
  if (typeof w.code !== "string" || !CODE.test(w.code) || typeof w.message !== "string" || w.message === "") {
    throw new Error(
      "An order rule added a warning without a code (lower-case letters, digits, _) or a message.",
    );
  }
  return {
    code: w.code,
    message: w.message,
    invoice_number: typeof w.invoice_number === "string" ? w.invoice_number : null,
  };
}

/**
 * Runs the order rules in order: the warnings they add, or the first refusal thrown as an
 * {@link OrderRuleRefusal}.
 *
 * @throws {OrderRuleRefusal} the first refusal; an Error when a rule breaks the contract.
 * @example
 * warnings.push(...(await runOrderRules(engine.hooks, { order, principal, creditor, now })));
 */
export async function runOrderRules(hooks: ResolvedOrderHooks, input: OrderRuleInput): Promise<Warning[]> {
  const warnings: Warning[] = [];
  for (const rule of hooks.orderRules) {
    const verdict = await rule(input);
    if (verdict?.refuse) throw refusalOf(hooks, verdict.refuse);
    for (const w of verdict?.warnings ?? []) warnings.push(warningOf(w));
  }
  return warnings;
}

/**
 * Runs the control-request rules in order; throws the first refusal.
 *
 * @throws {OrderRuleRefusal} the first refusal; an Error when a rule breaks the contract.
 * @example
 * await runActionRules(engine.hooks, { orderId, caseNumber, request, principal, now });
 */
export async function runActionRules(hooks: ResolvedOrderHooks, input: ActionRuleInput): Promise<void> {
  for (const rule of hooks.actionRules) {
    const verdict = await rule(input);
    if (verdict?.refuse) throw refusalOf(hooks, verdict.refuse);
  }
}
