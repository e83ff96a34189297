import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  analyseName,
  deriveMaatgevendeLetter,
  deriveMaatgevendeLetterForDefendants,
} from "./maatgevende-letter.js";

describe("deriveMaatgevendeLetter", () => {
  it.each([
    ["Jansen", "J"],
    ["de Vries", "V"],
    ["De Vries", "V"],
    ["van der Berg", "B"],
    ["Van den Broek", "B"],
    ["van de Ven", "V"],
    ["ter Horst", "H"],
    ["ten Cate", "C"],
    ["'t Hart", "H"],
    ["’t Hart", "H"],
    ["in 't Veld", "V"],
    ["op den Brouw", "B"],
    ["van 't Hek", "H"],
    ["d'Ancona", "A"],
    ["Jansen-de Vries", "J"],
    ["van Dijk-de Boer", "D"],
    ["Jansen B.V.", "J"],
    ["B.V. Jansen", "J"],
    ["Pietersen Holding BV", "P"],
    ["N.V. Nederlandsche Spoorwegen", "N"],
    ["Stichting Woonbron", "W"],
    ["Vereniging Eigen Huis", "E"],
    ["V.O.F. De Gouden Leeuw", "G"],
    ["Bakkerij Zon v.o.f.", "B"],
    ["Coöperatie Rabobank U.A.", "R"],
    ["De Bijenkorf B.V.", "B"],
    ["Vennootschap onder firma Smit en Zn.", "S"],
    ["Besloten vennootschap Alfa", "A"],
    ["The Coffee Company B.V.", "C"],
    ["A.S.R. Schadeverzekering N.V.", "A"],
    ["J. de Vries", "V"],
    ["J.P. van den Berg", "B"],
    ["Mr. J.P. van den Berg", "B"],
    ["Dhr. K. Bakker", "B"],
    ["de heer Bakker", "B"],
    // De Heer is a surname: "heer" is a form of address only in "de heer X" (Rotterdam rule: only
    // articles and prepositions in front of the name do not count).
    ["Heer", "H"],
    ["De Heer", "H"],
    ["Dhr. De Heer", "H"],
    ["de heer Jansen", "J"],
    ["de heer De Heer", "H"],
    ["De Heer B.V.", "H"],
    ["Heerkens", "H"],
    // A title only counts when a name follows; all-skippable names take their first word.
    ["Dhr.", "D"],
    ["Erven", "E"],
    ["van der", "V"],
    ["Mr. Van der", "V"],
    ["Mevrouw El Amrani", "E"],
    ["Erven J. Jansen", "J"],
    ["De gezamenlijke erfgenamen van wijlen P. de Boer", "B"],
    ["J. Pietersen h.o.d.n. Bakkerij Zon", "P"],
    ["Öztürk", "O"],
    ["Ünal", "U"],
    // Letters NFKD does not decompose get an explicit ASCII spelling.
    ["Ørsted", "O"],
    ["Łukasz", "L"],
    ["Æbelø", "A"],
    ["Œuvre B.V.", "O"],
    ["Đorđević", "D"],
    ["van Ørsted", "O"],
    ["ßmith", "S"],
    ["  van   der   Berg  ", "B"],
    ["VAN DER BERG", "B"],
    ["Van", "V"],
    ["3M Nederland B.V.", null],
    ["B.V.", null],
  ])("%s → %s", (naam, letter) => {
    expect(deriveMaatgevendeLetter(naam)).toBe(letter);
  });

  it("explains what it skipped and flags IJ", () => {
    expect(analyseName("Mr. J.P. van den Berg")).toEqual({
      letter: "B",
      decidingWord: "berg",
      skipped: ["mr.", "j.p.", "van", "den"],
      startsWithIJ: false,
    });
    expect(analyseName("IJzerman")).toEqual({
      letter: "I",
      decidingWord: "ijzerman",
      skipped: [],
      startsWithIJ: true,
    });
  });

  it("takes the alphabetically first defendant (Rotterdam rule)", () => {
    expect(deriveMaatgevendeLetterForDefendants(["de Vries", "van Dam", "Zwart"])).toBe("D");
    expect(deriveMaatgevendeLetterForDefendants(["B.V.", "Zwart"])).toBe("Z");
    expect(deriveMaatgevendeLetterForDefendants([])).toBeNull();
  });
});

// Surnames that are not themselves an infix, title, legal form or initial.
const surname = fc
  .tuple(fc.constantFrom(..."bcfghjkmnpqrwxy"), fc.stringMatching(/^[a-z]{3,10}$/))
  .map(([first, rest]) => first.toUpperCase() + rest);
const infix = fc.constantFrom(
  "van",
  "de",
  "van der",
  "van den",
  "ter",
  "ten",
  "'t",
  "op",
  "in 't",
  "den",
  "der",
  "Van",
  "De",
);
const legalForm = fc.constantFrom("B.V.", "N.V.", "V.O.F.", "C.V.", "BV", "bv", "Stichting", "vof");

describe("deriveMaatgevendeLetter properties", () => {
  it("is the capitalised first letter of a plain surname", () => {
    fc.assert(fc.property(surname, (s) => deriveMaatgevendeLetter(s) === s.charAt(0).toUpperCase()));
  });

  it("ignores case and surrounding or repeated spaces", () => {
    fc.assert(
      fc.property(infix, surname, fc.stringMatching(/^ {0,3}$/), (i, s, pad) => {
        const name = `${pad}${i}  ${s}${pad}`;
        const letter = deriveMaatgevendeLetter(`${i} ${s}`);
        return (
          deriveMaatgevendeLetter(name) === letter &&
          deriveMaatgevendeLetter(name.toUpperCase()) === letter &&
          deriveMaatgevendeLetter(name.toLowerCase()) === letter
        );
      }),
    );
  });

  it("ignores diacritics", () => {
    const accents: Record<string, string> = { a: "á", e: "é", i: "ï", o: "ö", u: "ü", c: "ç", n: "ñ" };
    fc.assert(
      fc.property(surname, (s) => {
        const accented = s.replace(/[aeioucn]/g, (ch) => accents[ch] ?? ch);
        return deriveMaatgevendeLetter(accented) === deriveMaatgevendeLetter(s);
      }),
    );
  });

  it("skips infixes in front and legal forms on either side", () => {
    fc.assert(
      fc.property(infix, surname, legalForm, fc.boolean(), (i, s, form, before) => {
        const name = before ? `${form} ${i} ${s}` : `${i} ${s} ${form}`;
        return deriveMaatgevendeLetter(name) === s.charAt(0);
      }),
    );
  });

  it("always answers a capital A-Z or null", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        const letter = deriveMaatgevendeLetter(text);
        return letter === null || /^[A-Z]$/.test(letter);
      }),
    );
  });
});
