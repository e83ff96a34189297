import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import bundled from "./data/statutory-interest-rates.json" with { type: "json" };
import {
  getRateTable,
  type InterestType,
  RATE_TABLE_LAST_KNOWN_DATE,
  type RateTableRow,
  rateInForceOn,
} from "./rate-table.js";

// The shared reference data sits next to the repository checkout (../shared from the root).
const sharedFile = fileURLToPath(
  new URL("../../../../shared/data/wik/statutory-interest-rates.json", import.meta.url),
);
const bundledFile = fileURLToPath(new URL("./data/statutory-interest-rates.json", import.meta.url));
const sharedExists = existsSync(sharedFile);

describe("the bundled rate table", () => {
  it.skipIf(!sharedExists)(
    sharedExists
      ? "is a byte-identical copy of the shared data file"
      : `is a copy of the shared data file (skipped: ${sharedFile} not found, so the copy cannot be compared)`,
    () => {
      expect(readFileSync(bundledFile, "utf8")).toBe(readFileSync(sharedFile, "utf8"));
    },
  );

  it.each(["wettelijke_rente", "wettelijke_handelsrente"] as const)(
    "%s: dates ascending, rates in whole hundredths of a percent, every row sourced",
    (type) => {
      const rows = getRateTable(type);
      expect(rows.length).toBeGreaterThan(10);
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i];
        expect(row?.from).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        if (i > 0) expect((row?.from ?? "") > (rows[i - 1]?.from ?? "")).toBe(true);
        expect(Number.isInteger(Math.round((row?.percent ?? 0) * 100))).toBe(true);
        expect(Math.abs(Math.round((row?.percent ?? 0) * 100) - (row?.percent ?? 0) * 100)).toBeLessThan(
          1e-9,
        );
        // Citations name public sources (an address, or a public page described in words), never
        // a private search index.
        for (const citation of [row?.source ?? "", ...(row?.also ?? [])]) {
          expect(citation.length).toBeGreaterThan(10);
          expect(citation).not.toMatch(/code-index|find_string/);
        }
      }
    },
  );

  it("returns the bundled rows themselves", () => {
    expect(getRateTable("wettelijke_rente")).toEqual(bundled.wettelijke_rente);
    expect(getRateTable("wettelijke_handelsrente")).toEqual(bundled.wettelijke_handelsrente);
    expect(() => getRateTable("other" as InterestType)).toThrowError(
      expect.objectContaining({ code: "invalid_option", field: "type" }),
    );
  });

  it("holds the rows of 2026-07-01 in the series, marked as resting on secondary sources; nothing unconfirmed", () => {
    const newest = (type: InterestType) => getRateTable(type).at(-1);
    expect(newest("wettelijke_rente")).toMatchObject({
      from: "2026-07-01",
      percent: 4,
      confidence: "medium",
    });
    expect(newest("wettelijke_handelsrente")).toMatchObject({
      from: "2026-07-01",
      percent: 10.4,
      confidence: "medium",
    });
    expect(bundled.unconfirmed).toEqual([]);
  });
});

describe("RATE_TABLE_LAST_KNOWN_DATE", () => {
  it("is the end of the half-year in which the newest rows took effect (2026-07-01)", () => {
    expect(RATE_TABLE_LAST_KNOWN_DATE).toBe("2026-12-31");
  });
});

describe("rateInForceOn", () => {
  it.each([
    ["wettelijke_rente", "2001-12-31", undefined],
    ["wettelijke_rente", "2002-01-01", 7],
    ["wettelijke_rente", "2003-07-31", 7],
    ["wettelijke_rente", "2003-08-01", 5], // a change off 1 Jan / 1 Jul
    ["wettelijke_rente", "2004-02-01", 4],
    ["wettelijke_rente", "2022-12-31", 2],
    ["wettelijke_rente", "2023-01-01", 4],
    ["wettelijke_rente", "2024-06-30", 7],
    ["wettelijke_rente", "2025-12-31", 6],
    ["wettelijke_rente", "2026-01-01", 4],
    ["wettelijke_rente", "2026-07-01", 4],
    ["wettelijke_rente", "2030-01-01", 4], // past the table: the newest known rate
    ["wettelijke_handelsrente", "2002-08-07", undefined],
    ["wettelijke_handelsrente", "2002-08-08", 7],
    ["wettelijke_handelsrente", "2013-03-15", 7.75],
    ["wettelijke_handelsrente", "2013-03-16", 8.75],
    ["wettelijke_handelsrente", "2024-07-01", 12.25],
    ["wettelijke_handelsrente", "2026-03-01", 10.15],
    ["wettelijke_handelsrente", "2026-06-30", 10.15],
    ["wettelijke_handelsrente", "2026-07-01", 10.4],
    ["wettelijke_handelsrente", "2030-01-01", 10.4], // past the table: the newest known rate
  ] as const)("%s on %s is %s", (type, date, expected) => {
    expect(rateInForceOn(type, date)).toBe(expected);
  });

  it("refuses a bad date", () => {
    expect(() => rateInForceOn("wettelijke_rente", "2023-02-29")).toThrowError(
      expect.objectContaining({ code: "invalid_date", field: "date" }),
    );
  });
});

describe("getRateTable", () => {
  it("hands out rows no caller can change for everyone else", () => {
    const rows = getRateTable("wettelijke_rente") as RateTableRow[];
    const before = rateInForceOn("wettelijke_rente", "2024-06-30");
    // ES modules run in strict mode: writing to a frozen object throws.
    expect(() => rows.push({ from: "2030-01-01", percent: 99, source: "x" })).toThrow(TypeError);
    expect(() => {
      (rows[0] as { percent: number }).percent = 99;
    }).toThrow(TypeError);
    const also = (rows[3]?.also ?? []) as string[];
    expect(also.length).toBeGreaterThan(0);
    expect(() => also.push("x")).toThrow(TypeError);
    expect(Object.isFrozen(getRateTable("wettelijke_handelsrente")[0])).toBe(true);
    expect(rows[0]?.percent).toBe(7);
    expect(rateInForceOn("wettelijke_rente", "2024-06-30")).toBe(before);
  });
});
