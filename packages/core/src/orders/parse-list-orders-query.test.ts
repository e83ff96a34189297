import { describe, expect, it } from "vitest";
import { encodeCursor } from "./cursor.js";
import { parseListOrdersQuery } from "./parse-list-orders-query.js";

const query = (qs: string) => Object.fromEntries(new URLSearchParams(qs));

describe("parseListOrdersQuery", () => {
  it("defaults limit to 25 and cursor to null", () => {
    expect(parseListOrdersQuery({})).toEqual({ ok: true, query: { limit: 25, cursor: null } });
  });

  it("coerces limit from its string form and passes the filters", () => {
    expect(
      parseListOrdersQuery(
        query("limit=10&type=incasso&reference=R-1&customer_number=K-1&case_number=2026-1"),
      ),
    ).toEqual({
      ok: true,
      query: {
        limit: 10,
        type: "incasso",
        reference: "R-1",
        customer_number: "K-1",
        case_number: "2026-1",
        cursor: null,
      },
    });
  });

  it.each([
    ["1", 1],
    ["100", 100],
  ])("limit %s passes", (limit, n) => {
    expect(parseListOrdersQuery({ limit })).toMatchObject({ ok: true, query: { limit: n } });
  });

  it.each([
    ["0", "too_small"],
    ["101", "too_large"],
    ["99999999999999999999", "too_large"],
    ["2.5", "not_integer"],
    ["abc", "not_integer"],
    ["", "not_integer"],
    ["0x10", "not_integer"],
    ["1e1", "not_integer"],
    [" 5 ", "not_integer"],
    ["+5", "not_integer"],
    ["-1", "not_integer"],
    ["٥", "not_integer"],
  ])("limit %j is refused with %s", (limit, code) => {
    expect(parseListOrdersQuery({ limit })).toEqual({
      ok: false,
      code: "validation_error",
      errors: [expect.objectContaining({ field: "limit", code })],
    });
  });

  it("says why a limit that is not digits is refused", () => {
    expect(parseListOrdersQuery({ limit: "0x10" })).toEqual({
      ok: false,
      code: "validation_error",
      errors: [
        { field: "limit", code: "not_integer", message: "must be a whole number written in the digits 0-9" },
      ],
    });
  });

  it("takes leading zeros as the decimal number they spell", () => {
    expect(parseListOrdersQuery({ limit: "010" })).toMatchObject({ ok: true, query: { limit: 10 } });
  });

  it("takes a limit given as a number, refusing a fraction and an array", () => {
    expect(parseListOrdersQuery({ limit: 7 })).toMatchObject({ ok: true, query: { limit: 7 } });
    expect(parseListOrdersQuery({ limit: 2.5 })).toMatchObject({
      ok: false,
      errors: [{ field: "limit", code: "not_integer" }],
    });
    expect(parseListOrdersQuery({ limit: ["5", "6"] })).toMatchObject({
      ok: false,
      errors: [{ field: "limit", code: "invalid_type" }],
    });
  });

  it("refuses an unknown type", () => {
    expect(parseListOrdersQuery({ type: "collection" })).toMatchObject({
      ok: false,
      errors: [{ field: "type", code: "invalid_value" }],
    });
  });

  it("decodes a valid cursor and refuses garbage with invalid_cursor", () => {
    const cursor = encodeCursor({ createdAt: "2026-11-21T10:15:00.000Z", id: "ord_0123456789abcdef" });
    expect(parseListOrdersQuery({ cursor })).toEqual({
      ok: true,
      query: { limit: 25, cursor: { createdAt: "2026-11-21T10:15:00.000Z", id: "ord_0123456789abcdef" } },
    });
    expect(parseListOrdersQuery({ cursor: "garbage" })).toEqual({
      ok: false,
      code: "validation_error",
      errors: [{ field: "cursor", code: "invalid_cursor", message: "is not a cursor of this list" }],
    });
  });

  it("reports every invalid parameter at once; a repeated parameter is invalid_type", () => {
    const r = parseListOrdersQuery({ limit: "0", type: "x", cursor: "y", reference: ["a", "b"] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => [e.field, e.code])).toEqual([
      ["reference", "invalid_type"],
      ["type", "invalid_value"],
      ["limit", "too_small"],
      ["cursor", "invalid_cursor"],
    ]);
  });
});
