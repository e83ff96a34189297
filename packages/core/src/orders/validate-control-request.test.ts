import { describe, expect, it } from "vitest";
import { validateControlRequest } from "./validate-control-request.js";

const CTX = { today: "2026-11-21" };

describe("validateControlRequest", () => {
  it.each(["hold", "withdraw"] as const)(
    "%s: the body is optional, the reason defaults to null",
    (action) => {
      expect(validateControlRequest(action, undefined, CTX)).toEqual({
        ok: true,
        request: { action, reason: null },
      });
      expect(validateControlRequest(action, {}, CTX)).toEqual({
        ok: true,
        request: { action, reason: null },
      });
      expect(validateControlRequest(action, { reason: "Regeling" }, CTX)).toEqual({
        ok: true,
        request: { action, reason: "Regeling" },
      });
    },
  );

  it.each(["hold", "withdraw", "payments"] as const)(
    "%s: reason of 1000 characters passes, 1001 is too_long",
    (action) => {
      const base = action === "payments" ? { amount_cents: 1 } : {};
      expect(validateControlRequest(action, { ...base, reason: "r".repeat(1000) }, CTX).ok).toBe(true);
      expect(validateControlRequest(action, { ...base, reason: "r".repeat(1001) }, CTX)).toEqual({
        ok: false,
        code: "validation_error",
        errors: [{ field: "reason", code: "too_long", message: "must be at most 1000 characters" }],
      });
    },
  );

  it("payments: payment_date defaults to today", () => {
    expect(validateControlRequest("payments", { amount_cents: 5000 }, CTX)).toEqual({
      ok: true,
      request: { action: "payments", reason: null, amount_cents: 5000, payment_date: "2026-11-21" },
    });
    expect(
      validateControlRequest(
        "payments",
        { amount_cents: 1, payment_date: "2026-11-01", reason: "giro" },
        CTX,
      ),
    ).toEqual({
      ok: true,
      request: { action: "payments", reason: "giro", amount_cents: 1, payment_date: "2026-11-01" },
    });
  });

  it.each([
    [undefined, "required"],
    [{}, "required"],
    [{ amount_cents: 0 }, "too_small"],
    [{ amount_cents: -1 }, "too_small"],
    [{ amount_cents: 1.5 }, "not_integer"],
    [{ amount_cents: "5000" }, "invalid_type"],
    [{ amount_cents: null }, "invalid_type"],
  ])("payments: body %j is refused with amount_cents %s", (body, code) => {
    expect(validateControlRequest("payments", body, CTX)).toMatchObject({
      ok: false,
      code: "validation_error",
      errors: [{ field: "amount_cents", code }],
    });
  });

  it("payments: a malformed payment_date is invalid_format", () => {
    expect(
      validateControlRequest("payments", { amount_cents: 1, payment_date: "2026-02-30" }, CTX),
    ).toMatchObject({
      ok: false,
      errors: [{ field: "payment_date", code: "invalid_format" }],
    });
  });

  it("a body that is not an object is refused", () => {
    expect(validateControlRequest("hold", "pause", CTX)).toMatchObject({
      ok: false,
      errors: [{ field: "body", code: "invalid_type" }],
    });
  });

  it("throws invalid_argument for a malformed today", () => {
    expect(() => validateControlRequest("hold", {}, { today: "today" })).toThrow(
      expect.objectContaining({ code: "invalid_argument" }),
    );
  });
});
