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

  it("carries status, code, detail and errors, and is recognised by its brand", () => {
    const e = new PdfGuardError({ status: 422, code: "invalid_attachment", detail: "refused", errors: [] });
    expect([e.status, e.code, e.detail, e.message, e.name]).toEqual([
      422,
      "invalid_attachment",
      "refused",
      "refused",
      "PdfGuardError",
    ]);
    expect(isPdfGuardError(e)).toBe(true);
    expect(isPdfGuardError({ ...e, isPdfGuardError: true })).toBe(true);
    expect(isPdfGuardError(new Error("x"))).toBe(false);
    expect(isPdfGuardError(null)).toBe(false);
  });
});
