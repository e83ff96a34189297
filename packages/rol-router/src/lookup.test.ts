import { describe, expect, it } from "vitest";
import { BUNDLED_DATASET } from "./data/bundle.generated.js";
import { createRolRouter, lookupRolRouter } from "./lookup.js";
import { RolRouterResultSchema } from "./result-schema.js";

const today = "2026-11-23";
const look = (woonplaats: string, extra: Record<string, string> = {}) =>
  lookupRolRouter({ woonplaats, naam: "Jansen", ...extra }, { today });
const placeOf = (woonplaats: string, extra: Record<string, string> = {}) => {
  const r = look(woonplaats, extra);
  return [r.status, r.woonplaats, r.gemeentecode];
};

describe("place lookup", () => {
  it.each([
    ["Den Haag", "'s-Gravenhage", "GM0518"],
    ["den haag", "'s-Gravenhage", "GM0518"],
    ["'s-Gravenhage", "'s-Gravenhage", "GM0518"],
    ["’s Gravenhage", "'s-Gravenhage", "GM0518"],
    ["s-gravenhage", "'s-Gravenhage", "GM0518"],
    ["Den Bosch", "'s-Hertogenbosch", "GM0796"],
    ["'s-Hertogenbosch", "'s-Hertogenbosch", "GM0796"],
    ["  AMSTERDAM  ", "Amsterdam", "GM0363"],
    ["Hengelo (Gld)", "Hengelo (Gld)", "GM1876"],
    ["hengelo gld", "Hengelo (Gld)", "GM1876"],
    ["Hengelo (Gelderland)", "Hengelo (Gld)", "GM1876"],
    ["Bergen (L.)", "Bergen L", "GM0893"],
    ["Sint Annaparochie", "St.-Annaparochie", "GM1949"],
    ["St Willebrord", "St. Willebrord", "GM0840"],
    ["Egmond Binnen", "Egmond-Binnen", "GM0373"],
    ["Spaarndam gem. Haarlem", "Spaarndam gem. Haarlem", "GM0392"],
    ["Botlek", "Botlek Rotterdam", "GM0599"],
    ["Goenga", "Goënga", "GM1900"],
  ])("%s → %s (%s)", (typed, bag, code) => {
    expect(placeOf(typed).slice(1)).toEqual([bag, code]);
  });

  it("answers ambiguous with the options when a name lies in several municipalities", () => {
    const r = look("Hengelo");
    expect(r.status).toBe("ambiguous");
    expect(r.opties).toEqual([
      { woonplaats: "Hengelo", gemeente: "Hengelo (O.)", gemeentecode: "GM0164", provincie: "Overijssel" },
      {
        woonplaats: "Hengelo (Gld)",
        gemeente: "Bronckhorst",
        gemeentecode: "GM1876",
        provincie: "Gelderland",
      },
    ]);
    expect(r.rechtbank).toBeUndefined();
    expect(r.opmerkingen).toEqual([
      "Woonplaats 'Hengelo' komt voor in 2 gemeenten; stuur 'gemeente' of 'provincie' mee.",
    ]);
  });

  it("lets gemeente or provincie settle an ambiguous name", () => {
    expect(placeOf("Hengelo", { provincie: "Gelderland" })).toEqual([
      "incomplete",
      "Hengelo (Gld)",
      "GM1876",
    ]);
    expect(placeOf("Hengelo", { gemeente: "Hengelo" })).toEqual(["incomplete", "Hengelo", "GM0164"]);
    expect(placeOf("Hengelo", { gemeente: "GM1876" })).toEqual(["incomplete", "Hengelo (Gld)", "GM1876"]);
    expect(placeOf("Winsum", { provincie: "Friesland" })).toEqual(["incomplete", "Winsum", "GM1949"]);
    expect(placeOf("Nes", { gemeente: "Ameland" })).toEqual(["ok", "Nes", "GM0060"]);
    expect(placeOf("Bergen", { provincie: "Limburg" })).toEqual(["incomplete", "Bergen L", "GM0893"]);
  });

  it("stays ambiguous when the filter does not settle it", () => {
    const r = look("Nes", { provincie: "Fryslân" });
    expect(r.status).toBe("ambiguous");
    expect(r.opties?.map((o) => o.gemeente)).toEqual(["Ameland", "Heerenveen", "Noardeast-Fryslân"]);
  });

  it("treats every name of the ambiguity list as ambiguous without a filter", () => {
    for (const name of [
      "Bergen",
      "Rijswijk",
      "Haren",
      "Alteveer",
      "Spaarndam",
      "Kapel Avezaath",
      "Beek",
      "Oosterhout",
    ]) {
      expect([name, look(name).status]).toEqual([name, "ambiguous"]);
    }
  });

  it("answers not_found with close suggestions", () => {
    const r = look("Amsterdm");
    expect(r.status).toBe("not_found");
    expect(r.suggesties).toEqual([
      { woonplaats: "Amsterdam", gemeente: "Amsterdam", gemeentecode: "GM0363", provincie: "Noord-Holland" },
    ]);
    expect(look("Alphen aan de Rijn").suggesties?.[0]?.woonplaats).toBe("Alphen aan den Rijn");
  });

  it("answers not_found without suggestions when nothing is close", () => {
    const r = look("Xyzzyqwerty");
    expect([r.status, r.suggesties, r.opmerkingen]).toEqual([
      "not_found",
      [],
      ["Woonplaats 'Xyzzyqwerty' niet gevonden."],
    ]);
  });

  it("answers not_found, with the real matches, when the place is not in the given gemeente", () => {
    const r = look("Amsterdam", { gemeente: "Rotterdam" });
    expect(r.status).toBe("not_found");
    expect(r.suggesties?.map((s) => s.gemeentecode)).toEqual(["GM0363"]);
    expect(r.opmerkingen[0]).toBe(
      "Woonplaats 'Amsterdam' bestaat, maar niet in gemeente 'Rotterdam'; zie de suggesties.",
    );
  });

  it("every result carries the same short disclaimer and the credit lines of the data it used", () => {
    const notFound = look("Xyzzyqwerty");
    const ambiguous = look("Hengelo");
    const ok = look("Assen");
    expect(new Set([notFound.disclaimer, ambiguous.disclaimer, ok.disclaimer]).size).toBe(1);
    expect(ok.disclaimer.split(". ")).toHaveLength(2);
    for (const r of [notFound, ambiguous, ok]) expect(r.bronvermelding).toEqual(BUNDLED_DATASET.credits);
    const own = createRolRouter({ data: { ...BUNDLED_DATASET, credits: ["Eigen gegevens van de host."] } });
    expect(own.lookup({ woonplaats: "Assen", naam: "Jansen" }, { today }).bronvermelding).toEqual([
      "Eigen gegevens van de host.",
    ]);
  });
});

describe("result status", () => {
  it("ok: Assen, with letter split A-K on Tuesday 10:00 and exact hearing dates", () => {
    const r = lookupRolRouter({ woonplaats: "Assen", naam: "van der Berg" }, { today });
    expect(r).toMatchObject({
      object: "rol_router_result",
      status: "ok",
      woonplaats: "Assen",
      gemeente: "Assen",
      gemeentecode: "GM0106",
      provincie: "Drenthe",
      rechtbank: "Rechtbank Noord-Nederland",
      arrondissement: "Noord-Nederland",
      kantonlocatie: "Assen",
      correspondentieadres: { postbus: "30009", postcode: "9400 RA", plaats: "Assen" },
      bezoekadres: "Brinkstraat 4, 9401 HZ Assen",
      maatgevende_letter: "B",
      betrouwbaarheid: { arrondissement: "hoog", kantonlocatie: "laag", rolzitting: "middel" },
      ontbrekend: [],
    });
    expect(r.roldagen).toEqual([
      {
        weekdag_naam: "dinsdag",
        roltijd: "10:00",
        letters: { van: "A", tot: "K" },
        komende_roldata: [
          { datum: "2026-11-24", dagen: 1, haalbaarheid: "kan_niet" },
          { datum: "2026-12-01", dagen: 8, haalbaarheid: "kan_niet" },
          { datum: "2026-12-08", dagen: 15, haalbaarheid: "krap" },
          { datum: "2026-12-15", dagen: 22, haalbaarheid: "ruim" },
          { datum: "2026-12-22", dagen: 29, haalbaarheid: "ruim" },
          { datum: "2026-12-29", dagen: 36, haalbaarheid: "ruim" },
        ],
        vroegste_roldatum: "2026-12-08",
      },
    ]);
    // Two sentences a person reads; where each part comes from is per field in bronnen.
    expect(r.disclaimer).toBe(
      "Indicatief en geen juridisch advies: alleen de woonplaats van de gedaagde is gebruikt, niet bijzondere bevoegdheidsregels of een forumkeuze. Controleer rechtbank, kantonlocatie en roldatum bij de rechtbank voordat u dagvaardt.",
    );
    expect(r.betrouwbaarheid?.kantonlocatie).toBe("laag");
    expect(r.bronnen?.gemeente).toContain("kanton: gebiedsindeling kantonzaken tot 1-1-2013");
    expect(r.bronvermelding[0]).toContain("CBS, Woonplaatsen in Nederland 2026 (86312NED), CC BY 4.0");
    expect(r.bronvermelding).toEqual(BUNDLED_DATASET.credits);
  });

  it("ok: Amsterdam picks the day of the letter (H → donderdag) and counts from the service date", () => {
    const r = lookupRolRouter(
      { woonplaats: "Amsterdam", naam: "'t Hart", betekeningsdatum: "2026-11-24" },
      { today },
    );
    expect(r.status).toBe("ok");
    expect(r.betrouwbaarheid).toEqual({
      arrondissement: "hoog",
      kantonlocatie: "hoog",
      rolzitting: "middel",
    });
    expect(r.roldagen?.map((d) => [d.weekdag_naam, d.roltijd, d.vroegste_roldatum])).toEqual([
      ["donderdag", "10:00", "2026-12-03"],
    ]);
    expect(r.roldagen?.[0]?.komende_roldata.slice(0, 3)).toEqual([
      { datum: "2026-11-26", dagen: 3, haalbaarheid: "kan_niet" },
      { datum: "2026-12-03", dagen: 10, haalbaarheid: "krap" },
      { datum: "2026-12-10", dagen: 17, haalbaarheid: "ruim" },
    ]);
  });

  it("skips closed days in the hearing dates (Amsterdam Friday 15 May 2026 is an equated day)", () => {
    const r = lookupRolRouter({ woonplaats: "Amsterdam", naam: "Alberts" }, { today: "2026-05-01" });
    expect(r.roldagen?.[0]?.komende_roldata.map((d) => d.datum)).toEqual([
      "2026-05-08",
      "2026-05-22",
      "2026-05-29",
      "2026-06-05",
      "2026-06-12",
      "2026-06-19",
    ]);
  });

  it("incomplete: Den Haag, four roll days without a known split; no guessed day", () => {
    const r = lookupRolRouter({ woonplaats: "Den Haag", naam: "van der Berg" }, { today });
    expect([r.status, r.kantonlocatie, r.roldagen, r.ontbrekend]).toEqual([
      "incomplete",
      "Den Haag",
      undefined,
      ["letterverdeling"],
    ]);
    expect(r.betrouwbaarheid?.rolzitting).toBeNull();
  });

  it("incomplete: Rotterdam, day known from the letter but no start time", () => {
    const r = lookupRolRouter({ woonplaats: "Rotterdam", naam: "Pietersen" }, { today });
    expect(r.status).toBe("incomplete");
    expect(r.ontbrekend).toEqual(["roltijd"]);
    expect(r.roldagen?.map((d) => [d.weekdag_naam, d.roltijd, d.letters])).toEqual([
      ["donderdag", null, { van: "P", tot: "Z" }],
    ]);
    expect(r.betrouwbaarheid?.rolzitting).toBe("laag");
  });

  it("incomplete: no kanton location known (Aalten), with everything else that is known", () => {
    const r = lookupRolRouter({ woonplaats: "Aalten", naam: "Jansen" }, { today });
    expect(r).toMatchObject({
      status: "incomplete",
      gemeente: "Aalten",
      gemeentecode: "GM0197",
      provincie: "Gelderland",
      rechtbank: "Rechtbank Gelderland",
      arrondissement: "Gelderland",
      maatgevende_letter: "J",
      ontbrekend: ["kantonlocatie"],
      betrouwbaarheid: { arrondissement: "hoog", kantonlocatie: null, rolzitting: null },
    });
    expect("kantonlocatie" in r).toBe(false);
    expect("roldagen" in r).toBe(false);
  });

  it("incomplete: location without any schedule (Arnhem)", () => {
    const r = lookupRolRouter({ woonplaats: "Arnhem", naam: "Jansen" }, { today });
    expect([r.status, r.kantonlocatie, r.bezoekadres, r.ontbrekend]).toEqual([
      "incomplete",
      "Arnhem",
      null,
      ["bezoekadres", "rolzitting"],
    ]);
  });

  it("incomplete: no deciding letter at a location that splits by letter", () => {
    const r = lookupRolRouter({ woonplaats: "Assen", naam: "3M B.V." }, { today });
    expect([r.status, r.maatgevende_letter, r.ontbrekend]).toEqual([
      "incomplete",
      null,
      ["maatgevende_letter"],
    ]);
  });

  it("ok with a missing address says so instead of inventing one (Groningen)", () => {
    const r = lookupRolRouter({ woonplaats: "Groningen", naam: "Zwart" }, { today });
    expect([r.status, r.kantonlocatie, r.bezoekadres, r.ontbrekend]).toEqual([
      "ok",
      "Groningen",
      null,
      ["bezoekadres", "correspondentieadres"],
    ]);
    expect(r.roldagen?.[0]?.roltijd).toBe("11:00");
  });

  it("IJ where I and Y have different sessions (Assen): both, and the letter counts as missing", () => {
    const r = lookupRolRouter({ woonplaats: "Assen", naam: "IJzerman" }, { today });
    expect([r.status, r.maatgevende_letter, r.ontbrekend]).toEqual([
      "incomplete",
      null,
      ["maatgevende_letter"],
    ]);
    expect(r.roldagen?.map((d) => [d.weekdag_naam, d.roltijd, d.letters])).toEqual([
      ["dinsdag", "10:00", { van: "A", tot: "K" }],
      ["dinsdag", "11:00", { van: "L", tot: "Z" }],
    ]);
    expect(r.opmerkingen).toContain(
      "De naam begint met IJ; de bronnen zeggen niet of de rechtbank die onder I of onder Y indeelt. In Assen geeft I dinsdag 10:00 en Y dinsdag 11:00; beide staan vermeld.",
    );
  });

  it("IJ where I and Y have different days (Rotterdam): both days", () => {
    const r = lookupRolRouter({ woonplaats: "Rotterdam", naam: "van IJsselmuiden" }, { today });
    expect([r.status, r.maatgevende_letter]).toEqual(["incomplete", null]);
    expect(r.ontbrekend).toEqual(["maatgevende_letter", "roltijd"]);
    expect(r.roldagen?.map((d) => d.weekdag_naam)).toEqual(["woensdag", "donderdag"]);
    expect(r.betrouwbaarheid?.rolzitting).toBe("laag");
  });

  it("IJ where I and Y share a session (Amsterdam): ok with letter I", () => {
    const r = lookupRolRouter({ woonplaats: "Amsterdam", naam: "IJzerman" }, { today });
    expect([r.status, r.maatgevende_letter, r.ontbrekend]).toEqual(["ok", "I", []]);
    expect(r.roldagen?.map((d) => [d.weekdag_naam, d.roltijd])).toEqual([["dinsdag", "10:00"]]);
    expect(r.opmerkingen).toContain(
      "De naam begint met IJ; in Amsterdam vallen I en Y op dezelfde rolzitting, dus het maakt niet uit of de rechtbank die onder I of onder Y indeelt.",
    );
  });

  it("IJ at a location without a letter split: ok, no remark", () => {
    const r = lookupRolRouter({ woonplaats: "Gouda", naam: "IJzerman" }, { today });
    expect([r.status, r.maatgevende_letter]).toEqual(["ok", "I"]);
    expect(r.opmerkingen.some((o) => o.includes("IJ"))).toBe(false);
  });

  it("stops listing dates where the known holiday calendar ends", () => {
    const r = lookupRolRouter({ woonplaats: "Assen", naam: "Jansen" }, { today: "2028-12-10" });
    expect(r.roldagen?.[0]?.komende_roldata.map((d) => d.datum)).toEqual(["2028-12-12", "2028-12-19"]);
    // Earliest by the term is Sat 23 Dec; Tue 26 Dec is Boxing Day; 2 Jan 2029 is past the calendar.
    expect(r.roldagen?.[0]?.vroegste_roldatum).toBeNull();
    expect(r.ontbrekend).toEqual(["feestdagenkalender"]);
    // Without an earliest feasible date the result does not answer the question: incomplete.
    expect(r.status).toBe("incomplete");
  });

  it("incomplete when the calendar gap leaves no date at all", () => {
    const r = lookupRolRouter({ woonplaats: "Assen", naam: "Jansen" }, { today: "2028-12-20" });
    expect([r.status, r.ontbrekend]).toEqual(["incomplete", ["feestdagenkalender"]]);
    expect(r.roldagen?.map((d) => [d.komende_roldata, d.vroegste_roldatum])).toEqual([[[], null]]);
  });

  it("stays ok when the calendar gap only shortens the list", () => {
    const r = lookupRolRouter({ woonplaats: "Assen", naam: "Jansen" }, { today: "2028-11-20" });
    expect([r.status, r.ontbrekend]).toEqual(["ok", ["feestdagenkalender"]]);
    expect(r.roldagen?.[0]?.komende_roldata.map((d) => d.datum)).toEqual([
      "2028-11-21",
      "2028-11-28",
      "2028-12-05",
      "2028-12-12",
      "2028-12-19",
    ]);
    expect(r.roldagen?.[0]?.vroegste_roldatum).toBe("2028-12-05");
  });

  it("flags dates before the known calendar (equated days known from 2019)", () => {
    const r = lookupRolRouter({ woonplaats: "Assen", naam: "Jansen" }, { today: "2018-11-19" });
    expect(r.roldagen?.[0]?.komende_roldata.map((d) => d.datum)).toEqual([
      "2018-11-20",
      "2018-11-27",
      "2018-12-04",
      "2018-12-11",
      "2018-12-18",
      "2019-01-08",
    ]);
    expect([r.status, r.ontbrekend]).toEqual(["ok", ["feestdagenkalender"]]);
    expect(r.opmerkingen).toContain(
      "Gelijkgestelde feestdagen zijn pas bekend vanaf 2019-01-01; eerdere roldata zijn alleen op de wettelijke feestdagen gecontroleerd.",
    );
    // From 2019 on the calendar is known: no flag.
    const later = lookupRolRouter({ woonplaats: "Assen", naam: "Jansen" }, { today: "2019-01-02" });
    expect(later.ontbrekend).toEqual([]);
  });
});

describe("determinism, validation and options", () => {
  it("gives the same result for the same day, whether today is a string or a Date", () => {
    const a = lookupRolRouter({ woonplaats: "Leeuwarden", naam: "Zwart" }, { today });
    // 23:30 UTC on 22 November is already 23 November in the Netherlands.
    const b = lookupRolRouter(
      { woonplaats: "Leeuwarden", naam: "Zwart" },
      { today: new Date("2026-11-22T23:30:00Z") },
    );
    expect(b).toEqual(a);
  });

  it("throws invalid_request with spec-style field errors", () => {
    expect(() =>
      lookupRolRouter({ woonplaats: "  ", naam: "Jansen", betekeningsdatum: "2026-13-01" }, { today }),
    ).toThrow(
      expect.objectContaining({
        code: "invalid_request",
        errors: [
          { field: "woonplaats", code: "too_small", message: expect.any(String) },
          { field: "betekeningsdatum", code: "invalid_format", message: expect.any(String) },
        ],
      }),
    );
  });

  it("tolerates unknown request fields", () => {
    const r = lookupRolRouter({ woonplaats: "Assen", naam: "Jansen", extra: 1 } as never, { today });
    expect(r.status).toBe("ok");
  });

  it("notes a service date on which no summons may be served", () => {
    const r = lookupRolRouter(
      { woonplaats: "Assen", naam: "Jansen", betekeningsdatum: "2026-12-25" },
      { today },
    );
    expect(r.opmerkingen).toContain(
      "Op 2026-12-25 mag zonder verlof van de kantonrechter niet worden betekend (zondag of erkende feestdag, art. 64 Rv).",
    );
  });

  it("produces a schema-valid result for every woonplaats of the dataset", () => {
    const router = createRolRouter();
    const statuses: Record<string, number> = {};
    for (const m of BUNDLED_DATASET.municipalities) {
      for (const [name] of m.places) {
        const r = router.lookup({ woonplaats: name, naam: "Jansen" }, { today });
        expect(RolRouterResultSchema.safeParse(r).success).toBe(true);
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        if (r.status !== "ambiguous") expect([name, r.woonplaats]).toEqual([name, name]);
      }
    }
    expect(Object.keys(statuses).sort()).toEqual(["ambiguous", "incomplete", "ok"]);
  });
});

describe("host data", () => {
  it("fills a gap with a location override and reports the host's confidence", () => {
    const overrides = {
      locations: {
        Leiden: {
          sessions: [{ weekday: "woensdag" as const, time: "10:00", letters: null }],
          scheduleConfidence: "hoog" as const,
          scheduleNote: "navraag griffie, november 2026",
        },
      },
    };
    const r = lookupRolRouter({ woonplaats: "Leiden", naam: "Jansen" }, { today, overrides });
    expect(r.status).toBe("ok");
    expect(r.roldagen?.map((d) => [d.weekdag_naam, d.roltijd])).toEqual([["woensdag", "10:00"]]);
    expect(r.betrouwbaarheid?.rolzitting).toBe("hoog");
    expect(r.bronnen?.rolzitting).toBe("navraag griffie, november 2026");
    expect(r.data_versie).toBe(`${BUNDLED_DATASET.version}+overrides`);
  });

  it("refuses a schedule override without its own confidence and note", () => {
    const sessions = [{ weekday: "woensdag" as const, time: "10:00", letters: null }];
    // Leiden has no bundled schedule; Gouda's bundled confidence and note belong to the old schedule.
    for (const name of ["Leiden", "Gouda"]) {
      expect(() => createRolRouter({ overrides: { locations: { [name]: { sessions } } } })).toThrow(
        expect.objectContaining({
          code: "invalid_dataset",
          errors: [
            {
              field: expect.stringMatching(/^data\.locations\[\d+\]\.scheduleConfidence$/),
              code: "invalid_reference",
              message: "a location with sessions needs a scheduleConfidence",
            },
            {
              field: expect.stringMatching(/^data\.locations\[\d+\]\.scheduleNote$/),
              code: "invalid_reference",
              message: "a location with sessions needs a scheduleNote",
            },
          ],
        }),
      );
    }
    // Only a confidence: the old note does not survive either.
    expect(() =>
      createRolRouter({
        overrides: { locations: { Gouda: { sessions, scheduleConfidence: "hoog" as const } } },
      }),
    ).toThrow(
      expect.objectContaining({
        errors: [expect.objectContaining({ message: "a location with sessions needs a scheduleNote" })],
      }),
    );
  });

  it("keeps a location's schedule confidence when the override leaves its sessions alone", () => {
    const overrides = { locations: { Gouda: { visitingAddress: "Oosthaven 25, 2801 PC Gouda" } } };
    const r = lookupRolRouter({ woonplaats: "Gouda", naam: "Jansen" }, { today, overrides });
    expect([r.betrouwbaarheid?.rolzitting, r.bronnen?.rolzitting]).toEqual([
      "middel",
      "rolzitting uit het bijzonder reglement, Stcrt. 2020, 3974",
    ]);
  });

  it("refuses a host dataset whose schedule has no confidence", () => {
    const data = {
      ...BUNDLED_DATASET,
      locations: BUNDLED_DATASET.locations.map((l) =>
        l.name === "Gouda" ? { ...l, scheduleConfidence: null } : l,
      ),
    };
    expect(() => createRolRouter({ data })).toThrow(
      expect.objectContaining({
        code: "invalid_dataset",
        errors: [expect.objectContaining({ message: "a location with sessions needs a scheduleConfidence" })],
      }),
    );
  });

  it("maps a municipality with an override", () => {
    const overrides = {
      municipalities: { GM0197: { location: "Zutphen", confidence: "middel" as const, source: "eigen" } },
    };
    const r = lookupRolRouter({ woonplaats: "Aalten", naam: "Jansen" }, { today, overrides });
    expect([r.kantonlocatie, r.betrouwbaarheid?.kantonlocatie, r.bronnen?.gemeente]).toEqual([
      "Zutphen",
      "middel",
      "eigen",
    ]);
  });

  it("refuses overrides that point at another court's location", () => {
    const overrides = {
      municipalities: { GM0197: { location: "Assen", confidence: "hoog" as const, source: "x" } },
    };
    expect(() => createRolRouter({ overrides })).toThrow(
      expect.objectContaining({
        code: "invalid_dataset",
        errors: [
          {
            field: expect.stringMatching(/^data\.municipalities\[\d+\]\.location$/),
            code: "invalid_reference",
            message: "Assen is not a location of Rechtbank Gelderland",
          },
        ],
      }),
    );
  });

  it("refuses overrides for unknown records", () => {
    expect(() => createRolRouter({ overrides: { locations: { Delft: { sessions: [] } } } })).toThrow(
      expect.objectContaining({ code: "invalid_dataset", message: "overrides name unknown records" }),
    );
  });

  it("uses a whole host dataset", () => {
    const data = { ...BUNDLED_DATASET, version: "eigen-1" };
    expect(lookupRolRouter({ woonplaats: "Assen", naam: "Jansen" }, { today, data }).data_versie).toBe(
      "eigen-1",
    );
  });

  it("rejects malformed router options at creation", () => {
    expect(() => createRolRouter({ serviceDays: 1.5 })).toThrow(
      expect.objectContaining({ code: "invalid_option" }),
    );
  });
});
