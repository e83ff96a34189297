import { describe, expect, it, vi } from "vitest";
import { AttachmentSchema } from "./attachment-schema.js";
import { type CheckedAttachment, checkAttachments, decodeAttachments } from "./check-attachments.js";
import { isPdfGuardError } from "./errors.js";
import {
  invoiceLines,
  makeActivePdf,
  makeEncryptedPdf,
  makeTextPdf,
  toBase64,
  truncate,
} from "./internal/testing/fixtures.js";
import type { PdfEngine, PdfParseResult } from "./pdf-engine.js";

const invoicePdf = await makeTextPdf({ pages: [invoiceLines({ number: "F-1", total: "€ 121,00" })] });
const invoice64 = toBase64(invoicePdf);

describe("checkAttachments", () => {
  it("accepts valid PDFs and returns bytes, normalised name, type, pages and text", async () => {
    const r = await checkAttachments([
      { filename: "facturen/Factuur F-1.PDF", content_base64: invoice64, document_type: "invoice" },
      { filename: "brief", content_base64: invoice64 },
    ]);
    expect(r.ok).toBe(true);
    expect(r.problem_code).toBeNull();
    expect(r.errors).toEqual([]);
    expect(r.total_bytes).toBe(invoicePdf.length * 2);
    const [first, second] = r.attachments as CheckedAttachment[];
    expect(first).toMatchObject({
      status: "accepted",
      index: 0,
      filename: "Factuur F-1.pdf",
      original_filename: "facturen/Factuur F-1.PDF",
      document_type: "invoice",
      size_bytes: invoicePdf.length,
      page_count: 1,
      encryption: "none",
      text_truncated: false,
      active_content: [],
    });
    expect(Buffer.from(first?.bytes ?? []).equals(Buffer.from(invoicePdf))).toBe(true);
    expect(first?.text).toContain("Factuurnummer: F-1");
    expect(second).toMatchObject({ index: 1, filename: "brief.pdf", document_type: null });
  });

  it("accepts an empty list", async () => {
    expect(await checkAttachments([])).toEqual({
      ok: true,
      problem_code: null,
      detail: null,
      errors: [],
      attachments: [],
      total_bytes: 0,
    });
  });

  it("refuses each bad attachment with a field path, judged by content", async () => {
    const r = await checkAttachments([
      { filename: "goed.pdf", content_base64: invoice64, document_type: "invoice" },
      { filename: "plaatje.pdf", content_base64: toBase64(new Uint8Array([0x89, 0x50, 0x4e, 0x47])) },
      { filename: "kapot.pdf", content_base64: toBase64(truncate(invoicePdf, 300)) },
      { filename: "geheim.pdf", content_base64: toBase64(makeEncryptedPdf(["x"], "pw", "owner")) },
      { filename: "data.pdf", content_base64: `data:application/pdf;base64,${invoice64}` },
    ]);
    expect(r.ok).toBe(false);
    expect(r.problem_code).toBe("invalid_attachment");
    expect(r.detail).toBe(
      "4 attachments were refused: each must be a valid PDF that opens without a password.",
    );
    expect(r.errors.map((e) => [e.field, e.code])).toEqual([
      ["attachments[1].content_base64", "not_pdf"],
      ["attachments[2].content_base64", "pdf_truncated"],
      ["attachments[3].content_base64", "pdf_password_protected"],
      ["attachments[4].content_base64", "base64_data_uri"],
    ]);
    expect(r.attachments.map((a) => a.status)).toEqual([
      "accepted",
      "refused",
      "refused",
      "refused",
      "refused",
    ]);
  });

  it("refuses more attachments than allowed without decoding any", async () => {
    const list = Array.from({ length: 31 }, () => ({ filename: "x.pdf", content_base64: "not base64!" }));
    const r = await checkAttachments(list);
    expect(r).toEqual({
      ok: false,
      problem_code: "validation_error",
      detail: "The attachments break a limit or a field rule; see errors.",
      errors: [
        {
          field: "attachments",
          code: "too_many_attachments",
          message: "At most 30 attachments are allowed per order; 31 were sent.",
        },
      ],
      attachments: [],
      total_bytes: 0,
    });
    const ten = await checkAttachments(list.slice(0, 11), { limits: { maxAttachments: 10 } });
    expect(ten.errors[0]?.message).toBe("At most 10 attachments are allowed per order; 11 were sent.");
  });

  it("applies the per-file and per-order size limits to the decoded bytes", async () => {
    const size = invoicePdf.length;
    const perFile = await checkAttachments([{ filename: "a.pdf", content_base64: invoice64 }], {
      limits: { maxFileBytes: size - 1 },
    });
    expect(perFile.errors).toEqual([
      {
        field: "attachments[0].content_base64",
        code: "attachment_too_large",
        message: `The decoded file has ${size} bytes; at most ${size - 1} are allowed.`,
      },
    ]);
    expect(perFile.problem_code).toBe("validation_error");
    const exact = await checkAttachments([{ filename: "a.pdf", content_base64: invoice64 }], {
      limits: { maxFileBytes: size },
    });
    expect(exact.ok).toBe(true);

    const total = await checkAttachments(
      [
        { filename: "a.pdf", content_base64: invoice64 },
        { filename: "b.pdf", content_base64: invoice64 },
      ],
      { limits: { maxTotalBytes: size * 2 - 1 }, fieldPrefix: "order.attachments" },
    );
    expect(total.errors).toEqual([
      {
        field: "order.attachments",
        code: "attachments_too_large",
        message: `The attachments have ${size * 2} bytes in total; at most ${size * 2 - 1} are allowed per order.`,
      },
    ]);
    expect(total.attachments.map((a) => a.status)).toEqual(["refused", "refused"]);
  });

  it("refuses an order over the total from the base64 lengths, before decoding any file", async () => {
    // Line-wrapped base64 (RFC 2045): whitespace and padding do not count toward the size.
    const wrapped = invoice64.replace(/(.{76})/g, "$1\r\n");
    const size = invoicePdf.length;
    const decodes = vi.spyOn(Buffer, "from");
    try {
      const r = await checkAttachments(
        [
          { filename: "a.pdf", content_base64: wrapped },
          { filename: "b.pdf", content_base64: invoice64 },
        ],
        { limits: { maxTotalBytes: size * 2 - 1 } },
      );
      expect(r.errors).toEqual([
        {
          field: "attachments",
          code: "attachments_too_large",
          message: `The attachments have ${size * 2} bytes in total; at most ${size * 2 - 1} are allowed per order.`,
        },
      ]);
      expect(r.total_bytes).toBe(size * 2);
      expect(decodes.mock.calls.filter((call) => (call as unknown[])[1] === "base64")).toEqual([]);
    } finally {
      decodes.mockRestore();
    }
    const exact = await checkAttachments([{ filename: "a.pdf", content_base64: wrapped }], {
      limits: { maxTotalBytes: size },
    });
    expect([exact.ok, exact.total_bytes]).toEqual([true, size]);
  });

  it("refuses a filename over 120 characters and an unknown document_type", async () => {
    const r = await checkAttachments([
      { filename: `${"a".repeat(117)}.pdf`, content_base64: invoice64, document_type: "letter" as never },
    ]);
    expect(r.errors).toEqual([
      {
        field: "attachments[0].filename",
        code: "too_long",
        message: "must be at most 120 characters",
      },
      {
        field: "attachments[0].document_type",
        code: "invalid_value",
        message: 'must be one of "invoice", "wik_letter", "other"',
      },
    ]);
    expect(r.attachments[0]).toMatchObject({ status: "refused", filename: null });
  });

  it("counts filename length as the order schema (zod) does and reports it with the same code", async () => {
    const emoji = "\u{1F4C4}"; // one code point, two UTF-16 units
    const fits = `${emoji.repeat(116)}.pdf`; // 120 code points, 236 units
    const over = `${emoji.repeat(117)}.pdf`; // 121 code points
    const ascii = `${"a".repeat(117)}.pdf`; // 121 of both
    for (const [name, ok] of [
      [fits, true],
      [over, false],
      [ascii, false],
    ] as const) {
      const zod = AttachmentSchema.safeParse({ filename: name, content_base64: invoice64 });
      const r = await checkAttachments([{ filename: name, content_base64: invoice64 }]);
      expect([zod.success, r.ok]).toEqual([ok, ok]);
      if (!ok) {
        expect(zod.error?.issues.map((i) => [i.path.join("."), i.code])).toEqual([["filename", "too_big"]]);
        expect(r.errors.map((e) => [e.field, e.code])).toEqual([["attachments[0].filename", "too_long"]]);
      } else {
        expect(r.attachments[0]?.filename).toBe(fits);
      }
    }
  });

  it("reports missing, empty and mistyped fields with the order schema's codes", async () => {
    const r = await checkAttachments([
      { content_base64: invoice64 } as never,
      { filename: "", content_base64: "" },
      { filename: 7, content_base64: null } as never,
    ]);
    expect(r.problem_code).toBe("validation_error");
    expect(r.errors).toEqual([
      { field: "attachments[0].filename", code: "required", message: "is required" },
      { field: "attachments[1].filename", code: "required", message: "must not be empty" },
      { field: "attachments[1].content_base64", code: "required", message: "must not be empty" },
      { field: "attachments[2].filename", code: "invalid_type", message: "must be string, got number" },
      { field: "attachments[2].content_base64", code: "invalid_type", message: "must be string, got null" },
    ]);
  });

  it("gives an attachment whose name is only path parts a numbered fallback name", async () => {
    const r = await checkAttachments([
      { filename: "a.pdf", content_base64: invoice64 },
      { filename: "../", content_base64: invoice64 },
    ]);
    expect(r.attachments[1]?.filename).toBe("bijlage-2.pdf");
  });

  it("parses on the engine it is given, with the order's limits and signal", async () => {
    // Any runtime can bring its own engine; the package calls nothing but parse().
    const engine: PdfEngine = {
      parse: vi.fn(
        async (): Promise<PdfParseResult> => ({ ok: false, reason: "timeout", detail: "took 9 ms" }),
      ),
    };
    const r = await checkAttachments([{ filename: "a.pdf", content_base64: invoice64 }], {
      engine,
      limits: { parseTimeoutMs: 9, parseMemoryMb: 7, maxTextChars: 5 },
    });
    expect(r.errors).toEqual([
      {
        field: "attachments[0].content_base64",
        code: "pdf_timeout",
        message: "The PDF could not be read in time (took 9 ms).",
      },
    ]);
    expect(engine.parse).toHaveBeenCalledTimes(1);
    const [bytes, limits, signal] = vi.mocked(engine.parse).mock.calls[0] ?? [];
    expect(bytes).toEqual(invoicePdf);
    expect(limits).toMatchObject({ parseTimeoutMs: 9, parseMemoryMb: 7, maxTextChars: 5 });
    expect(signal).toBeInstanceOf(AbortSignal);
  });
});

describe("decodeAttachments", () => {
  it("returns the accepted attachments", async () => {
    const list = await decodeAttachments([{ filename: "a.pdf", content_base64: invoice64 }]);
    expect(list.map((a) => [a.filename, a.page_count])).toEqual([["a.pdf", 1]]);
  });

  it("throws a 422 PdfGuardError with errors[] ready for a problem", async () => {
    const error = await decodeAttachments([
      { filename: "a.pdf", content_base64: invoice64 },
      { filename: "b.pdf", content_base64: "JVBERi0xLjcK" },
      { filename: "c.pdf", content_base64: toBase64(makeEncryptedPdf(["x"], "pw", "o")) },
    ]).catch((e: unknown) => e);
    expect(isPdfGuardError(error)).toBe(true);
    if (!isPdfGuardError(error)) return;
    expect(error.status).toBe(422);
    expect(error.code).toBe("invalid_attachment");
    expect(error.message).toBe(
      "2 attachments were refused: each must be a valid PDF that opens without a password.",
    );
    expect(error.errors).toEqual([
      {
        field: "attachments[1].content_base64",
        code: "pdf_truncated",
        message: "The PDF is incomplete: the %%EOF end marker is missing, so the file was probably cut off.",
      },
      {
        field: "attachments[2].content_base64",
        code: "pdf_password_protected",
        message: "The PDF is password protected; send it without a password.",
      },
    ]);
  });
});

describe("checkAttachments: active content (decision pdf-guard-active-content)", () => {
  const list = async () => [
    { filename: "factuur.pdf", content_base64: invoice64, document_type: "invoice" as const },
    { filename: "script.pdf", content_base64: toBase64(await makeActivePdf("open-action-javascript")) },
    { filename: "polyglot.pdf", content_base64: toBase64(await makeActivePdf("html-prefix")) },
  ];

  it("accepts such files by default, unchanged, with what they hold", async () => {
    const input = await list();
    const r = await checkAttachments(input);
    expect(r.ok).toBe(true);
    const accepted = r.attachments as CheckedAttachment[];
    expect(accepted.map((a) => [a.filename, a.active_content])).toEqual([
      ["factuur.pdf", []],
      ["script.pdf", ["javascript"]],
      ["polyglot.pdf", ["bytes_before_header"]],
    ]);
    expect(toBase64(accepted[2]?.bytes ?? new Uint8Array())).toBe(input[2]?.content_base64);
  });

  it("refuses them with pdf_active_content when asked, as invalid_attachment", async () => {
    const r = await checkAttachments(await list(), { refuseActiveContent: true });
    expect(r.ok).toBe(false);
    expect(r.problem_code).toBe("invalid_attachment");
    expect(r.detail).toBe(
      "2 attachments were refused: each must be a valid PDF that opens without a password and, on this server, holds no active content.",
    );
    expect(r.errors).toEqual([
      {
        field: "attachments[1].content_base64",
        code: "pdf_active_content",
        message: "The PDF holds active content (JavaScript); this server accepts PDFs without it.",
      },
      {
        field: "attachments[2].content_base64",
        code: "pdf_active_content",
        message:
          "The PDF holds active content (bytes before the %PDF- header); this server accepts PDFs without it.",
      },
    ]);
    expect(r.attachments.map((a) => a.status)).toEqual(["accepted", "refused", "refused"]);
  });

  it("accepts a clean PDF when refusal is asked", async () => {
    const r = await checkAttachments(
      [{ filename: "schoon.pdf", content_base64: toBase64(await makeActivePdf("clean")) }],
      { refuseActiveContent: true },
    );
    expect(r.ok).toBe(true);
    expect((r.attachments[0] as CheckedAttachment).active_content).toEqual([]);
  });
});
