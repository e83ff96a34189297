import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalisePlaceName } from "./normalise-place-name.js";

describe("normalisePlaceName", () => {
  it.each([
    ["'s-Gravenhage", "s gravenhage"],
    ["’s Gravenhage", "s gravenhage"],
    ["  DEN   haag ", "den haag"],
    ["Hengelo (Gld)", "hengelo gld"],
    ["St.-Annaparochie", "sint annaparochie"],
    ["Sint Annaparochie", "sint annaparochie"],
    ["Fryslân", "fryslan"],
    ["Goënga", "goenga"],
    ["Nuenen, Gerwen en Nederwetten", "nuenen gerwen en nederwetten"],
    ["Egmond-Binnen", "egmond binnen"],
  ])("%s → %s", (input, output) => {
    expect(normalisePlaceName(input)).toBe(output);
  });

  // "st" is read as "sint" on purpose, so it is left out of the generated words.
  const word = fc.stringMatching(/^[a-z]{1,8}$/).filter((w) => w !== "st");
  const name = fc.array(word, { minLength: 1, maxLength: 4 });
  const separator = fc.constantFrom(" ", "-", "  ", " - ", "_");

  it("is idempotent", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 30 }),
        (s) => normalisePlaceName(normalisePlaceName(s)) === normalisePlaceName(s),
      ),
    );
  });

  it("ignores case, separators and surrounding spaces", () => {
    fc.assert(
      fc.property(name, separator, fc.boolean(), (words, sep, upper) => {
        const typed = `  ${words.join(sep)} `;
        return normalisePlaceName(upper ? typed.toUpperCase() : typed) === words.join(" ");
      }),
    );
  });

  it("ignores diacritics", () => {
    fc.assert(
      fc.property(name, (words) => {
        const plain = words.join(" ");
        const accented = plain.replace(/e/g, "ë").replace(/a/g, "â");
        return normalisePlaceName(accented) === normalisePlaceName(plain);
      }),
    );
  });
});
