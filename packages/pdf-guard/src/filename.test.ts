import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AttachmentSchema } from "./attachment-schema.js";
import { normaliseFilename } from "./filename.js";

describe("normaliseFilename", () => {
  it.each([
    ["factuur.pdf", "factuur.pdf"],
    ["Factuur 2026-001.PDF", "Factuur 2026-001.pdf"],
    ["C:\\Users\\x\\Factuur.pdf", "Factuur.pdf"],
    ["../../etc/passwd", "passwd.pdf"],
    ["brief", "brief.pdf"],
    ["scan.jpg", "scan.jpg.pdf"],
    ["fac\u0000tuur\n.pdf", "factuur.pdf"],
    ["factuur\u202Efdp.exe", "factuurfdp.exe.pdf"],
    ["  veel   spaties  .pdf ", "veel spaties.pdf"],
    [".verborgen.pdf", "verborgen.pdf"],
    ["a<b>c:d|e?f*.pdf", "a_b_c_d_e_f_.pdf"],
    ["..", "bijlage.pdf"],
    ["/", "bijlage.pdf"],
    [".pdf", "bijlage.pdf"],
    ["e\u0301te.pdf", "\u00e9te.pdf"],
    // Windows device names, also before a dot or in another case (Microsoft, "Naming Files").
    ["CON.pdf", "_CON.pdf"],
    ["nul.pdf", "_nul.pdf"],
    ["COM1.pdf", "_COM1.pdf"],
    ["LPT1", "_LPT1.pdf"],
    ["aux.tar.gz", "_aux.tar.gz.pdf"],
    ["PRN .pdf", "_PRN.pdf"],
    ["COM\u00B9.pdf", "_COM\u00B9.pdf"],
    ["CONSOLE.pdf", "CONSOLE.pdf"],
    ["COM10.pdf", "COM10.pdf"],
  ])("normalises %j to %j", (input, expected) => {
    expect(normaliseFilename(input)).toBe(expected);
  });

  it("uses the given fallback when nothing usable is left", () => {
    expect(normaliseFilename("\u0007", { fallback: "bijlage-3.pdf" })).toBe("bijlage-3.pdf");
  });

  it("shortens the stem so the name with .pdf fits", () => {
    const name = normaliseFilename(`${"a".repeat(119)}.docx`);
    expect(name).toBe(`${"a".repeat(116)}.pdf`);
    expect(Array.from(normaliseFilename("é".repeat(200))).length).toBe(120);
  });

  it("counts code points, as zod's .max does, and never splits a surrogate pair", () => {
    const out = normaliseFilename("\u{1F4C4}".repeat(200));
    expect(out).toBe(`${"\u{1F4C4}".repeat(116)}.pdf`);
    expect(AttachmentSchema.shape.filename.safeParse(out).success).toBe(true);
    expect(AttachmentSchema.shape.filename.safeParse(`x${out}`).success).toBe(false);
  });

  it("prefixes a device name that shortening leaves behind", () => {
    expect(normaliseFilename("CONSOLE.pdf", { maxLength: 7 })).toBe("_CO.pdf");
  });

  it("always yields a safe name ending in .pdf within the limit", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200, unit: "binary" }),
        fc.integer({ min: 5, max: 120 }),
        (input, max) => {
          const out = normaliseFilename(input, { maxLength: max, fallback: "x.pdf" });
          return (
            out.endsWith(".pdf") &&
            Array.from(out).length <= Math.max(max, 5) &&
            !/^(?:CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³])(?:\.|$)/i.test(out.slice(0, -4)) &&
            !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(out) &&
            !/[/\\<>:"|?*]/.test(out) &&
            !/[\p{Cc}\p{Cf}]/u.test(out) &&
            !out.startsWith(".")
          );
        },
      ),
    );
  });
});
