import { isIsoDate } from "../calendar-dates.js";
import { HoldRequestSchema, PaymentReportSchema, WithdrawRequestSchema } from "./control-request-schemas.js";
import { OrdersError } from "./errors.js";
import type { FieldError } from "./field-error.js";
import { issuesToFieldErrors } from "./internal/zod-issues.js";

/**
 * A valid control request: the reason (null when none was given) and, for a payment report, the
 * amount and the date of receipt (today when none was given; spec POST /orders/{orderId}/payments).
 *
 * @example
 * const r: ControlRequest = { action: "payments", reason: null, amount_cents: 5000, payment_date: "2026-11-21" };
 */
export type ControlRequest =
  | { action: "hold" | "withdraw"; reason: string | null }
  | { action: "payments"; reason: string | null; amount_cents: number; payment_date: string };

/**
 * The outcome of {@link validateControlRequest}. The spec shows no problem code for an invalid
 * payment report (Errors: "422 (code not shown)"); `validation_error` is used, as for every other
 * invalid field (decision orders-control-requests).
 *
 * @example
 * const r: ControlRequestValidation = validateControlRequest("hold", undefined, { today: "2026-11-21" });
 */
export type ControlRequestValidation =
  | { ok: true; request: ControlRequest }
  | { ok: false; code: "validation_error"; errors: FieldError[] };

/**
 * Validates the body of a hold, withdraw or payments request. An absent body (`undefined`) is an
 * empty object: the body of hold and withdraw is optional, and for payments it then lacks the
 * required `amount_cents`.
 *
 * @throws {OrdersError} `invalid_argument` when `ctx.today` is not a date.
 * @example
 * validateControlRequest("payments", { amount_cents: 5000 }, { today: "2026-11-21" });
 * // { ok: true, request: { action: "payments", reason: null, amount_cents: 5000, payment_date: "2026-11-21" } }
 */
export function validateControlRequest(
  action: "hold" | "withdraw" | "payments",
  body: unknown,
  ctx: { today: string },
): ControlRequestValidation {
  if (!isIsoDate(ctx.today)) throw new OrdersError("invalid_argument", "ctx.today must be a YYYY-MM-DD date");
  const input = body === undefined ? {} : body;
  if (action === "payments") {
    const parsed = PaymentReportSchema.safeParse(input);
    if (!parsed.success) return refused(parsed.error.issues, input);
    const { amount_cents, payment_date, reason } = parsed.data;
    return {
      ok: true,
      request: { action, reason: reason ?? null, amount_cents, payment_date: payment_date ?? ctx.today },
    };
  }
  const parsed = (action === "hold" ? HoldRequestSchema : WithdrawRequestSchema).safeParse(input);
  if (!parsed.success) return refused(parsed.error.issues, input);
  return { ok: true, request: { action, reason: parsed.data.reason ?? null } };
}

function refused(
  issues: Parameters<typeof issuesToFieldErrors>[0],
  input: unknown,
): ControlRequestValidation {
  return { ok: false, code: "validation_error", errors: issuesToFieldErrors(issues, input) };
}
