import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./cursor.js";

const ID = "ord_0123456789abcdef";

const orderId = fc.stringMatching(/^ord_[0-9a-f]{16}$/);
const timestamp = fc
  .tuple(
    fc.date({
      min: new Date("1970-01-01T00:00:00Z"),
      max: new Date("9999-12-31T23:59:59Z"),
      noInvalidDate: true,
    }),
    fc.stringMatching(/^\d{0,6}$/),
  )
  .map(([d, micros]) =>
    micros === "" ? d.toISOString() : d.toISOString().replace(/\.\d{3}Z$/, `.${micros}Z`),
  );

describe("encodeCursor / decodeCursor", () => {
  it("round-trips every valid position exactly (property)", () => {
    fc.assert(
      fc.property(timestamp, orderId, (createdAt, id) => {
        const cursor = encodeCursor({ createdAt, id });
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(decodeCursor(cursor)).toEqual({ createdAt, id });
      }),
    );
  });

  it("keeps microseconds and offsets as given", () => {
    for (const createdAt of [
      "2026-11-21T10:15:00.123456Z",
      "2026-11-21T11:15:00+01:00",
      "2026-11-21T10:15:00Z",
    ]) {
      expect(decodeCursor(encodeCursor({ createdAt, id: ID }))).toEqual({ createdAt, id: ID });
    }
  });

  it("writes the cursors it wrote with node:crypto and Buffer (value pinned)", () => {
    // A client may hold a next_cursor across an upgrade; it must still decode to the same page.
    const cursor = "djF8MjAyNi0xMS0yMVQxMDoxNTowMC4xMjM0NTZafG9yZF8wMTIzNDU2Nzg5YWJjZGVm2ifU3jK-";
    expect(encodeCursor({ createdAt: "2026-11-21T10:15:00.123456Z", id: ID })).toBe(cursor);
    expect(decodeCursor(cursor)).toEqual({ createdAt: "2026-11-21T10:15:00.123456Z", id: ID });
  });

  it("accepts a Date and writes it with toISOString", () => {
    const cursor = encodeCursor({ createdAt: new Date("2026-11-21T10:15:00.5Z"), id: ID });
    expect(decodeCursor(cursor)).toEqual({ createdAt: "2026-11-21T10:15:00.500Z", id: ID });
  });

  it("is opaque: no readable timestamp or id in it", () => {
    const cursor = encodeCursor({ createdAt: "2026-11-21T10:15:00.000Z", id: ID });
    expect(cursor).not.toContain("ord_");
    expect(cursor).not.toContain("2026");
  });

  it("refuses garbage", () => {
    for (const s of [
      "",
      "x",
      "not a cursor",
      "%%%",
      "AAAA",
      "=",
      "a".repeat(201),
      Buffer.from("v1|x|y").toString("base64url"),
    ]) {
      expect(decodeCursor(s)).toBeNull();
    }
  });

  it("refuses every single-character edit of a valid cursor (property)", () => {
    const cursor = encodeCursor({ createdAt: "2026-11-21T10:15:00.000Z", id: ID });
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    fc.assert(
      fc.property(fc.nat(cursor.length - 1), fc.constantFrom(...alphabet), (at, ch) => {
        fc.pre(cursor[at] !== ch);
        const edited = cursor.slice(0, at) + ch + cursor.slice(at + 1);
        expect(decodeCursor(edited)).toBeNull();
      }),
    );
  });

  it("refuses a truncated or extended cursor", () => {
    const cursor = encodeCursor({ createdAt: "2026-11-21T10:15:00.000Z", id: ID });
    expect(decodeCursor(cursor.slice(0, -1))).toBeNull();
    expect(decodeCursor(cursor.slice(1))).toBeNull();
    expect(decodeCursor(`${cursor}A`)).toBeNull();
  });

  it("refuses a well-made cursor whose time is no real instant (a forged one)", () => {
    // The check is no secret (decision orders-cursor): anyone can make one the way the package does.
    const forge = (createdAt: string) => {
      const payload = Buffer.from(`v1|${createdAt}|${ID}`, "utf8");
      const check = createHash("sha256").update("incasso-order-cursor").update(payload).digest();
      return Buffer.concat([payload, check.subarray(0, 6)]).toString("base64url");
    };
    expect(decodeCursor(forge("2026-11-21T10:15:00.000+14:00"))).toEqual({
      createdAt: "2026-11-21T10:15:00.000+14:00",
      id: ID,
    });
    for (const impossible of [
      "2026-02-30T00:00:00Z",
      "9999-99-99T99:99:99Z",
      "0000-01-01T00:00:00Z",
      "2026-01-01T24:00:00Z",
      "2026-01-01T00:60:00Z",
      "2026-01-01T00:00:60Z",
      "2026-01-01T00:00:00+99:99",
      "2026-01-01T00:00:00+14:01",
      "2026-01-01T00:00:00-10:60",
    ]) {
      expect(decodeCursor(forge(impossible)), impossible).toBeNull();
      expect(() => encodeCursor({ createdAt: impossible, id: ID }), impossible).toThrow(
        expect.objectContaining({ code: "invalid_argument" }),
      );
    }
  });

  it("throws invalid_argument for positions it cannot encode", () => {
    expect(() => encodeCursor({ createdAt: "2026-11-21", id: ID })).toThrow(
      expect.objectContaining({ code: "invalid_argument" }),
    );
    expect(() => encodeCursor({ createdAt: "2026-11-21T10:15:00Z", id: "ord_XYZ" })).toThrow(
      expect.objectContaining({ code: "invalid_argument" }),
    );
    expect(() => encodeCursor({ createdAt: new Date(Number.NaN), id: ID })).toThrow(
      expect.objectContaining({ code: "invalid_argument" }),
    );
  });
});
