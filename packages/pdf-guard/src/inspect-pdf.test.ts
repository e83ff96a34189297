import { describe, expect, it } from "vitest";
import { type InspectPdfOptions, inspectPdf as inspect } from "./inspect-pdf.js";
import {
  encryptWithQpdf,
  garbagePdf,
  invoiceLines,
  makeActivePdf,
  makeEncryptedPdf,
  makeFlateBombPdf,
  makeTextPdf,
  qpdfAvailable,
  truncate,
} from "./internal/testing/fixtures.js";
import { getPdfEngine } from "./node.js";

// Every file here is parsed in the process-wide worker engine, where the time and memory bounds
// apply, unless a test says otherwise.
const inspectPdf = (bytes: Uint8Array, options: InspectPdfOptions = {}) =>
  inspect(bytes, { engine: getPdfEngine(), ...options });

describe("inspectPdf", () => {
  it("reads page count and text of a valid PDF in a worker", async () => {
    const bytes = await makeTextPdf({
      pages: [
        invoiceLines({ number: "F-2026-001", total: "€ 1.250,00" }),
        ["Pagina 2", "Algemene voorwaarden"],
      ],
    });
    const r = await inspectPdf(bytes);
    if (!r.ok) throw new Error(r.code);
    expect(r.page_count).toBe(2);
    expect(r.pages).toHaveLength(2);
    expect(r.pages[0]).toContain("Factuurnummer: F-2026-001\nFactuurdatum: 15-01-2026");
    expect(r.pages[0]).toContain("Totaal te betalen: € 1.250,00");
    expect(r.pages[1]).toBe("Pagina 2\nAlgemene voorwaarden");
    expect(r.text).toBe(`${r.pages[0]}\n\f\n${r.pages[1]}`);
    expect(r.encryption).toBe("none");
    expect(r.text_truncated).toBe(false);
    expect(r.pdf_version).toBe("1.7");
  });

  it("reads a PDF with object streams (PDF 1.5 cross-reference streams)", async () => {
    const r = await inspectPdf(await makeTextPdf({ pages: [["Regel één"]], objectStreams: true }));
    expect(r.ok && r.text).toBe("Regel één");
  });

  it("gives the same result on the calling thread", async () => {
    const bytes = await makeTextPdf({ pages: [["Een regel", "Nog een regel"]] });
    const inWorker = await inspectPdf(bytes);
    const inline = await inspect(bytes);
    expect(inline).toEqual(inWorker);
  });

  it("cuts the text at maxTextChars and says so", async () => {
    const bytes = await makeTextPdf({ pages: [["abcdefghij"], ["klmnopqrst"]] });
    const r = await inspectPdf(bytes, { limits: { maxTextChars: 15 } });
    expect(r.ok && r.pages).toEqual(["abcdefghij", "klmno"]);
    expect(r.ok && r.text_truncated).toBe(true);
    expect(r.ok && r.page_count).toBe(2);
  });

  it("refuses a password-protected PDF", async () => {
    const r = await inspectPdf(makeEncryptedPdf(["Geheim"], "secret", "owner"));
    expect(r).toEqual({
      ok: false,
      code: "pdf_password_protected",
      message: "The PDF is password protected; send it without a password.",
    });
  });

  it("accepts an owner-password-only PDF and reads its text", async () => {
    const r = await inspectPdf(makeEncryptedPdf(["Factuurnummer: F-9", "Totaal: € 12,50"], "", "owner"));
    expect(r.ok && r.encryption).toBe("owner_password_only");
    expect(r.ok && r.text).toBe("Factuurnummer: F-9\nTotaal: € 12,50");
  });

  it("refuses truncated, damaged and non-PDF content with distinct codes", async () => {
    const bytes = await makeTextPdf({ pages: [["Tekst"]] });
    const lostEnd = await inspectPdf(truncate(bytes, bytes.length - 10));
    expect(lostEnd.ok ? null : lostEnd.code).toBe("pdf_truncated");
    const half = await inspectPdf(truncate(bytes, Math.floor(bytes.length / 2)));
    expect(half.ok ? null : half.code).toBe("pdf_truncated");
    const garbage = await inspectPdf(garbagePdf(4096));
    expect(garbage).toEqual({
      ok: false,
      code: "pdf_damaged",
      message: "The PDF is damaged and cannot be read.",
    });
    const text = await inspectPdf(new TextEncoder().encode("Dit is geen PDF"));
    expect(text.ok ? null : text.code).toBe("not_pdf");
    const empty = await inspectPdf(new Uint8Array(0));
    expect(empty).toEqual({ ok: false, code: "not_pdf", message: "The file is empty." });
  });

  it("stops a decompression bomb at the memory budget", async () => {
    // 300 KB that inflate to 300 MiB; the budget is 64 MiB.
    const r = await inspectPdf(makeFlateBombPdf(300), { limits: { parseMemoryMb: 64 } });
    expect(r.ok ? null : r.code).toBe("pdf_too_complex");
  });

  it("stops a parse that takes longer than the time budget", async () => {
    const r = await inspectPdf(makeFlateBombPdf(300), {
      limits: { parseTimeoutMs: 50, parseMemoryMb: 2048 },
    });
    expect(r.ok ? null : r.code).toBe("pdf_timeout");
  });
});

// RC4 (R3) and AES-128 (R4) files are made by qpdf. Without qpdf these tests are skipped locally,
// but in CI (CI=true, where .ci/run installs qpdf) a missing qpdf is a failure, never a skip.
const hasQpdf = qpdfAvailable();
const inCi = process.env.CI === "true";
if (!hasQpdf && !inCi) {
  console.warn("inspect-pdf: qpdf is not installed; the RC4 (R3) and AES-128 (R4) fixtures are skipped");
}

describe.skipIf(!hasQpdf && !inCi)("inspectPdf on qpdf-encrypted PDFs", () => {
  it("has qpdf (required in CI)", () => {
    expect(hasQpdf).toBe(true);
  });

  it.each([
    ["rc4-128", "/R 3"],
    ["aes-128", "/R 4"],
  ] as const)(
    "refuses a %s file with a user password and reads one with only an owner password",
    async (cipher, revision) => {
      const plain = await makeTextPdf({ pages: [["Factuurnummer: F-12", "Totaal: 42,00"]] });
      const locked = encryptWithQpdf(plain, cipher, "geheim", "eigenaar");
      expect(Buffer.from(locked).toString("latin1")).toContain(revision);
      expect(await inspectPdf(locked)).toEqual({
        ok: false,
        code: "pdf_password_protected",
        message: "The PDF is password protected; send it without a password.",
      });
      const ownerOnly = await inspectPdf(encryptWithQpdf(plain, cipher, "", "eigenaar"));
      expect(ownerOnly.ok && [ownerOnly.encryption, ownerOnly.text]).toEqual([
        "owner_password_only",
        "Factuurnummer: F-12\nTotaal: 42,00",
      ]);
    },
  );
});

describe("inspectPdf: active content (decision pdf-guard-active-content)", () => {
  const cases = [
    ["clean", []],
    ["open-action-javascript", ["javascript"]],
    ["names-javascript", ["javascript"]],
    ["open-action-launch", ["launch"]],
    ["link-launch", ["launch"]],
    ["link-javascript", ["javascript"]],
    ["embedded-file", ["embedded_file"]],
    ["html-prefix", ["bytes_before_header"]],
  ] as const;
  for (const objectStreams of [false, true]) {
    it.each(cases)(
      `%s${objectStreams ? " in object streams" : ""}: accepted, active_content %j`,
      async (variant, kinds) => {
        const bytes = await makeActivePdf(variant, { objectStreams });
        const r = await inspectPdf(bytes);
        if (!r.ok) throw new Error(r.code);
        expect(r.page_count).toBe(1);
        expect(r.text).toBe("Factuur F-1");
        expect(r.active_content).toEqual(kinds);
        // The calling thread sees the same.
        const inline = await inspect(bytes);
        expect(inline.ok && inline.active_content).toEqual(kinds);
      },
    );
  }

  it("reports every kind a file holds, in a fixed order", async () => {
    const bytes = await makeActivePdf("embedded-file");
    const prefixed = new Uint8Array([...new TextEncoder().encode("<html>\n"), ...bytes]);
    // An object appended after the end, as a careless incremental update leaves one.
    const tail = new TextEncoder().encode("\n99 0 obj\n<< /S /J#61vaScript /JS (x) >>\nendobj\n%%EOF\n");
    const r = await inspectPdf(new Uint8Array([...prefixed, ...tail]));
    expect(r.ok && r.active_content).toEqual(["javascript", "embedded_file", "bytes_before_header"]);
  });

  it("falls back on the bytes as written for an engine that does not report active content", async () => {
    const engine = {
      parse: async () => ({
        ok: true as const,
        page_count: 1,
        pages: ["x"],
        text_truncated: false,
        encryption: "none" as const,
        pdf_version: "1.7",
      }),
    };
    const plain = await inspect(await makeActivePdf("open-action-launch"), { engine });
    expect(plain.ok && plain.active_content).toEqual(["launch"]);
    const prefixed = await inspect(await makeActivePdf("html-prefix"), { engine });
    expect(prefixed.ok && prefixed.active_content).toEqual(["bytes_before_header"]);
    const clean = await inspect(await makeActivePdf("clean"), { engine });
    expect(clean.ok && clean.active_content).toEqual([]);
  });
});
