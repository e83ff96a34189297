import { describe, expect, it } from "vitest";
import { checkEnvelope } from "./envelope.js";

const enc = (s: string) => new TextEncoder().encode(s);

describe("checkEnvelope", () => {
  it("accepts %PDF- at the start and %%EOF at the end", () => {
    expect(checkEnvelope(enc("%PDF-1.4\n...\n%%EOF\n"))).toEqual({ ok: true });
  });

  it("tolerates up to 1024 bytes before the header and after the end marker", () => {
    expect(checkEnvelope(enc(`${" ".repeat(1000)}%PDF-1.4\n%%EOF${" ".repeat(1000)}`)).ok).toBe(true);
    expect(checkEnvelope(enc(`${" ".repeat(1024)}%PDF-1.4\n%%EOF`))).toMatchObject({
      ok: false,
      code: "not_pdf",
    });
    expect(checkEnvelope(enc(`%PDF-1.4\n%%EOF${" ".repeat(1020)}`))).toMatchObject({
      ok: false,
      code: "pdf_truncated",
    });
  });

  it("judges the content: a PNG or a text file is not a PDF", () => {
    expect(checkEnvelope(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]))).toMatchObject({
      code: "not_pdf",
    });
    expect(checkEnvelope(enc("PDF-1.4 %%EOF"))).toMatchObject({ code: "not_pdf" });
    expect(checkEnvelope(new Uint8Array())).toEqual({
      ok: false,
      code: "not_pdf",
      message: "The file is empty.",
    });
  });
});
