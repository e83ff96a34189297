import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dueDateOf } from "./due-date.js";

describe("dueDateOf", () => {
  it.each([
    ["2026-01-31", 30, "2026-03-02"],
    ["2026-01-31", 0, "2026-01-31"],
    ["2024-02-28", 1, "2024-02-29"],
    ["2025-02-28", 1, "2025-03-01"],
    ["2026-03-28", 1, "2026-03-29"],
    ["2026-10-24", 1, "2026-10-25"],
    ["2026-12-31", 1, "2027-01-01"],
    ["2026-01-01", 365, "2027-01-01"],
    ["2024-01-01", 365, "2024-12-31"],
  ])("%s + %i days = %s", (invoice_date, payment_term_days, due) => {
    expect(dueDateOf({ invoice_date, payment_term_days })).toBe(due);
  });

  it("returns due_date when given", () => {
    expect(dueDateOf({ invoice_date: "2026-01-31", due_date: "2026-02-14", payment_term_days: null })).toBe(
      "2026-02-14",
    );
  });

  it("agrees with counting days one by one (property)", () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date("1990-01-01T00:00:00Z"),
          max: new Date("2100-01-01T00:00:00Z"),
          noInvalidDate: true,
        }),
        fc.integer({ min: 0, max: 365 }),
        (d, days) => {
          const invoice_date = d.toISOString().slice(0, 10);
          const expected = new Date(Date.parse(`${invoice_date}T00:00:00Z`) + days * 86_400_000)
            .toISOString()
            .slice(0, 10);
          expect(dueDateOf({ invoice_date, payment_term_days: days })).toBe(expected);
        },
      ),
    );
  });

  it("throws due_date_missing without due_date and term, invalid_argument on malformed input", () => {
    expect(() => dueDateOf({ invoice_date: "2026-01-01" })).toThrow(
      expect.objectContaining({ code: "due_date_missing" }),
    );
    expect(() => dueDateOf({ invoice_date: "2026-01-01", due_date: null, payment_term_days: null })).toThrow(
      expect.objectContaining({ code: "due_date_missing" }),
    );
    expect(() => dueDateOf({ invoice_date: "2026-02-30", payment_term_days: 1 })).toThrow(
      expect.objectContaining({ code: "invalid_argument" }),
    );
    expect(() => dueDateOf({ invoice_date: "2026-01-01", payment_term_days: -1 })).toThrow(
      expect.objectContaining({ code: "invalid_argument" }),
    );
    expect(() => dueDateOf({ invoice_date: "2026-01-01", due_date: "soon" })).toThrow(
      expect.objectContaining({ code: "invalid_argument" }),
    );
  });
});
