import { describe, expect, it } from "vitest";
import { parseCsv } from "../../scripts/internal/csv.js";
import { type RawInputs, transform } from "../../scripts/internal/transform.js";

const court = (locations: object[]) =>
  JSON.stringify([{ rechtbank: "Rechtbank Gouda", arrondissement: "Gouda", kantonlocaties: locations }]);
const location = (naam: string, rolzittingen: object[] = []) => ({
  naam,
  bezoekadres: null,
  correspondentieadres: { postbus: null, postcode: null, plaats: null },
  rolzittingen,
  sources: ["test"],
  confidence: "test",
});
const inputs = (over: Partial<RawInputs> = {}): RawInputs => ({
  "woonplaatsen.csv":
    "woonplaats,woonplaatscode,gemeente,gemeentecode,provincie\nGouda,1002,Gouda,0513,Zuid-Holland\n",
  "gemeenten.csv": "gemeentecode,gemeente,provincie\n0513,Gouda,Zuid-Holland\n",
  "gemeente-kanton.csv":
    "gemeente,gemeentecode,rechtbank,arrondissement,kantonlocatie,source,confidence\nGouda,GM0513,Rechtbank Gouda,Gouda,Leiden,arr: x [VR-check ok]; kanton: y,laag\n",
  "courts.json": court([location("Leiden")]),
  ...over,
});

describe("build step", () => {
  it("reads RFC 4180 quoting", () => {
    expect(parseCsv('a,b\n1,"x, ""y"""\n')).toEqual([{ a: "1", b: 'x, "y"' }]);
  });

  it("builds a record with its source and confidence", () => {
    const d = transform(inputs(), {});
    expect(d.municipalities).toEqual([
      {
        code: "GM0513",
        name: "Gouda",
        province: "Zuid-Holland",
        court: "Rechtbank Gouda",
        arrondissement: "Gouda",
        courtConfidence: "hoog",
        location: "Leiden",
        confidence: "laag",
        source: "arr: x [VR-check ok]; kanton: y",
        places: [["Gouda", "1002"]],
      },
    ]);
    expect(d.version).toMatch(/^2026-01-01\.[0-9a-f]{12}$/);
  });

  it("refuses a municipality mapped to a location that does not exist", () => {
    expect(() => transform(inputs({ "courts.json": court([location("Delft")]) }), {})).toThrow(
      "build-data: GM0513: location Leiden is not a location of Rechtbank Gouda",
    );
  });

  it("refuses a woonplaats in an unknown municipality", () => {
    const w =
      "woonplaats,woonplaatscode,gemeente,gemeentecode,provincie\nGouda,1002,Gouda,0513,Zuid-Holland\nX,9999,X,9999,Zuid-Holland\n";
    expect(() => transform(inputs({ "woonplaatsen.csv": w }), {})).toThrow("unknown municipality GM9999");
  });

  it("refuses a schedule nobody has assessed", () => {
    const sessions = [{ weekdag: "dinsdag", roltijd: "10:00", letters: null }];
    expect(() =>
      transform(inputs({ "courts.json": court([location("Leiden"), location("Delft", sessions)]) }), {}),
    ).toThrow("Delft has rolzittingen but no schedule assessment");
  });
});
