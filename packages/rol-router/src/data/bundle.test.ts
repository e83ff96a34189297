import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { serialise, transform } from "../../scripts/internal/transform.js";
import { validateDataset } from "../dataset-tools.js";
import { BUNDLED_DATASET as data } from "./bundle.generated.js";

describe("bundled data integrity", () => {
  it("passes the dataset validator (shape and references)", () => {
    expect(validateDataset(data)).toBe(data);
  });

  it("has the 342 gemeenten, 2,502 woonplaatsen, 11 rechtbanken and 31 locations of the sources", () => {
    expect(data.municipalities).toHaveLength(342);
    expect(data.municipalities.reduce((n, m) => n + m.places.length, 0)).toBe(2502);
    expect(data.courts).toHaveLength(11);
    expect(data.locations).toHaveLength(31);
    expect(new Set(data.municipalities.map((m) => m.province)).size).toBe(12);
  });

  it("maps every woonplaats to exactly one known municipality (codes unique)", () => {
    const codes = data.municipalities.flatMap((m) => m.places.map(([, code]) => code));
    expect(new Set(codes).size).toBe(codes.length);
    for (const m of data.municipalities) expect(m.places.length).toBeGreaterThan(0);
  });

  it("maps every municipality to a known court with its arrondissement", () => {
    const courts = new Map(data.courts.map((c) => [c.name, c.arrondissement]));
    for (const m of data.municipalities) expect(courts.get(m.court)).toBe(m.arrondissement);
  });

  it("names only existing locations of the municipality's own court", () => {
    const court = new Map(data.locations.map((l) => [l.name, l.court]));
    for (const m of data.municipalities) {
      if (m.location !== null) expect(court.get(m.location)).toBe(m.court);
    }
  });

  it("carries the confidence counts of SOURCES.md (6 hoog, 30 middel, 216 laag, 90 without location)", () => {
    const count = (c: string | null) => data.municipalities.filter((m) => m.confidence === c).length;
    expect([count("hoog"), count("middel"), count("laag"), count(null)]).toEqual([6, 30, 216, 90]);
    for (const m of data.municipalities) expect(m.location === null).toBe(m.confidence === null);
  });

  it("gives every record its source, and every schedule a confidence", () => {
    for (const m of data.municipalities) expect(m.source.length).toBeGreaterThan(10);
    for (const l of data.locations) {
      expect(l.sources.length).toBeGreaterThan(0);
      expect(l.scheduleConfidence === null).toBe(l.sessions.length === 0);
    }
  });

  it("knows the split only where the sources give one (Den Haag's four days are not split)", () => {
    const withSessions = data.locations.filter((l) => l.sessions.length > 0);
    expect(withSessions.map((l) => [l.name, l.splitKnown])).toEqual([
      ["Amsterdam", true],
      ["Den Haag", false],
      ["Gouda", true],
      ["Assen", true],
      ["Groningen", true],
      ["Leeuwarden", true],
      ["Rotterdam", true],
    ]);
  });

  it("sends every letter A-Z to exactly one roll day where a letter split exists", () => {
    for (const l of data.locations.filter((x) => x.sessions.some((s) => s.letters))) {
      for (let c = 65; c <= 90; c++) {
        const letter = String.fromCharCode(c);
        const days = new Set(
          l.sessions
            .filter((s) => s.letters && letter >= s.letters.from && letter <= s.letters.to)
            .map((s) => `${s.weekday} ${s.time}`),
        );
        expect([l.name, letter, days.size]).toEqual([l.name, letter, 1]);
      }
    }
  });

  it("credits CBS under CC BY 4.0", () => {
    expect(data.credits[0]).toContain("CBS, Woonplaatsen in Nederland 2026 (86312NED), CC BY 4.0");
  });

  const shared = join(__dirname, "../../../../../shared/data/rol-router");
  it.skipIf(!existsSync(shared))(
    "is exactly what the build step makes from ../shared/data/rol-router",
    () => {
      const read = (f: string) => readFileSync(join(shared, f), "utf8");
      const rebuilt = serialise(
        transform({
          "woonplaatsen.csv": read("woonplaatsen.csv"),
          "gemeenten.csv": read("gemeenten.csv"),
          "gemeente-kanton.csv": read("gemeente-kanton.csv"),
          "courts.json": read("courts.json"),
        }),
      );
      expect(rebuilt).toBe(readFileSync(join(__dirname, "bundle.generated.ts"), "utf8"));
    },
  );

  it("documents the exported constant with an @example that holds (house rule)", () => {
    const source = serialise(data);
    const doc = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\nexport const BUNDLED_DATASET/.exec(source)?.[1] ?? "";
    expect(doc).toContain("@example");
    expect(doc).toContain(
      'BUNDLED_DATASET.locations.find((l) => l.name === "Gouda")?.sessions[0]?.weekday; // "donderdag"',
    );
    expect(data.locations.find((l) => l.name === "Gouda")?.sessions[0]?.weekday).toBe("donderdag");
  });
});
