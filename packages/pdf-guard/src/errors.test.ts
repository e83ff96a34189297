import { describe, expect, it } from "vitest";
import {
  ATTACHMENT_ISSUE_CODES,
  isPdfGuardError,
  PdfGuardError,
  problemCodeFor,
  problemCodeForAll,
} from "./errors.js";

describe("errors", () => {
  it("maps every issue code to one problem code", () => {
    const map = Object.fromEntries(ATTACHMENT_ISSUE_CODES.map((c) => [c, problemCodeFor(c)]));
    expect(map).toEqual({
      too_many_attachments: "validation_error",
      attachments_too_large: "validation_error",
      attachment_too_large: "validation_error",
      required: "validation_error",
      invalid_type: "validation_error",
      too_long: "validation_error",
      invalid_value: "validation_error",
      invalid_base64: "invalid_attachment",
      base64_data_uri: "invalid_attachment",
      not_pdf: "invalid_attachment",
      pdf_truncated: "invalid_attachment",
      pdf_damaged: "invalid_attachment",
      pdf_password_protected: "invalid_attachment",
      pdf_timeout: "invalid_attachment",
      pdf_too_complex: "invalid_attachment",
      pdf_active_content: "invalid_attachment",
    });
  });

  it("prefers invalid_attachment when content and limits fail together", () => {
    expect(
      problemCodeForAll([
        { field: "attachments[0].filename", code: "too_long", message: "" },
        { field: "attachments[1].content_base64", code: "not_pdf", message: "" },
      ]),
    ).toBe("invalid_attachment");
    expect(problemCodeForAll([{ field: "attachments", code: "too_many_attachments", message: "" }])).toBe(
      "validation_error",
    );
  });

  it("has the shared error shape: status, code, message, errors, headers and the project's brand", () => {
    const e = new PdfGuardError({ status: 422, code: "invalid_attachment", detail: "refused", errors: [] });
    expect([e.status, e.code, e.message, e.name, e.errors, e.headers, e.retryAfterSeconds]).toEqual([
      422,
      "invalid_attachment",
      "refused",
      "PdfGuardError",
      [],
      {},
      null,
    ]);
    expect((e as unknown as Record<symbol, unknown>)[Symbol.for("incasso.error")]).toBe(true);
    expect(Object.keys(e)).not.toContain("isPdfGuardError");
    const busy = new PdfGuardError({
      status: 503,
      code: "pdf_engine_busy",
      detail: "busy",
      retryAfterSeconds: 3,
    });
    expect([busy.headers, busy.retryAfterSeconds]).toEqual([{ "Retry-After": "3" }, 3]);
  });

  it("recognises its errors by the shared brand and name, also from another copy of the package", () => {
    const e = new PdfGuardError({ status: 422, code: "invalid_attachment", detail: "refused", errors: [] });
    expect(isPdfGuardError(e)).toBe(true);
    const copy = { name: "PdfGuardError", code: "pdf_engine_busy", [Symbol.for("incasso.error")]: true };
    expect(isPdfGuardError(copy)).toBe(true);
    expect(isPdfGuardError({ ...e, isPdfGuardError: true })).toBe(false);
    expect(isPdfGuardError({ ...copy, name: "WikError" })).toBe(false);
    expect(isPdfGuardError({ ...copy, code: 7 })).toBe(false);
    expect(isPdfGuardError(new Error("x"))).toBe(false);
    expect(isPdfGuardError(null)).toBe(false);
  });
});
