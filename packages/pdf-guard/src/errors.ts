/**
 * Stable codes for why an attachment, or the attachment list, was refused. They appear as
 * `errors[].code` in the 422 problem (spec section Errors: "errors[] ... items with field, code,
 * message"; values of errors[].code beyond two are "not shown", so these are ours: decision
 * pdf-guard-error-codes).
 *
 * @example
 * const code: AttachmentIssueCode = "pdf_password_protected";
 */
export type AttachmentIssueCode =
  | "too_many_attachments"
  | "attachments_too_large"
  | "attachment_too_large"
  | "required"
  | "invalid_type"
  | "too_long"
  | "invalid_value"
  | "invalid_base64"
  | "base64_data_uri"
  | "not_pdf"
  | "pdf_truncated"
  | "pdf_damaged"
  | "pdf_password_protected"
  | "pdf_timeout"
  | "pdf_too_complex"
  | "pdf_active_content";

/**
 * Every {@link AttachmentIssueCode}, for schemas and exhaustive tests.
 *
 * @example
 * ATTACHMENT_ISSUE_CODES.includes("not_pdf"); // true
 */
export const ATTACHMENT_ISSUE_CODES = [
  "too_many_attachments",
  "attachments_too_large",
  "attachment_too_large",
  "required",
  "invalid_type",
  "too_long",
  "invalid_value",
  "invalid_base64",
  "base64_data_uri",
  "not_pdf",
  "pdf_truncated",
  "pdf_damaged",
  "pdf_password_protected",
  "pdf_timeout",
  "pdf_too_complex",
  "pdf_active_content",
] as const satisfies readonly AttachmentIssueCode[];

/**
 * The top-level problem code a refusal becomes: `invalid_attachment` when the content is not a
 * usable PDF (spec: "PDF refused: not a PDF, damaged, or password protected"), `validation_error`
 * when a limit or a field rule is broken (spec section Limits).
 *
 * @example
 * const code: AttachmentProblemCode = "invalid_attachment";
 */
export type AttachmentProblemCode = "invalid_attachment" | "validation_error";

/**
 * One entry of the problem's `errors[]`, in the spec's shape (section Errors).
 *
 * @example
 * const e: AttachmentFieldError = {
 *   field: "attachments[2].content_base64",
 *   code: "pdf_password_protected",
 *   message: "The PDF is password protected.",
 * };
 */
export interface AttachmentFieldError {
  /** Path in the spec's notation, such as `attachments[2].content_base64`. */
  field: string;
  /** Stable reason. */
  code: AttachmentIssueCode;
  /** Human-readable explanation for the client's developer. */
  message: string;
}

const VALIDATION_CODES: ReadonlySet<AttachmentIssueCode> = new Set([
  "too_many_attachments",
  "attachments_too_large",
  "attachment_too_large",
  "required",
  "invalid_type",
  "too_long",
  "invalid_value",
]);

/**
 * Maps an issue to the problem code it belongs to.
 *
 * @example
 * problemCodeFor("pdf_damaged"); // "invalid_attachment"
 * problemCodeFor("attachment_too_large"); // "validation_error"
 */
export function problemCodeFor(code: AttachmentIssueCode): AttachmentProblemCode {
  return VALIDATION_CODES.has(code) ? "validation_error" : "invalid_attachment";
}

/**
 * Picks the problem code for a set of issues: `invalid_attachment` as soon as one attachment's
 * content is refused, because that is the more specific code the spec names for attachments;
 * otherwise `validation_error`.
 *
 * @example
 * problemCodeForAll([{ field: "attachments", code: "too_many_attachments", message: "..." }]); // "validation_error"
 */
export function problemCodeForAll(errors: readonly AttachmentFieldError[]): AttachmentProblemCode {
  return errors.some((e) => problemCodeFor(e.code) === "invalid_attachment")
    ? "invalid_attachment"
    : "validation_error";
}

/**
 * What a {@link PdfGuardError} is made of.
 *
 * @example
 * const init: PdfGuardErrorInit = { status: 422, code: "invalid_attachment", detail: "...", errors: [] };
 */
export interface PdfGuardErrorInit {
  /**
   * HTTP status the error should become: 422 for refusals of the client's attachments, 503 when
   * the PDF engine is busy or shut down, 500 when it cannot start.
   */
  status: number;
  /**
   * Stable code: `invalid_attachment` or `validation_error` (422); `pdf_engine_busy` or
   * `pdf_engine_closed` (503); `pdf_engine_unavailable` (500); `openai_not_installed` (500, the
   * OpenAI checker or title writer without the optional `openai` package). Only the 422 codes judge
   * the file (decision pdf-guard-pdf-engine).
   */
  code: string;
  /** Explanation of this occurrence. */
  detail: string;
  /** Per-field failures, ready for the problem's `errors[]`. */
  errors?: AttachmentFieldError[];
  /** For a 503: when trying again makes sense, in seconds, for a `Retry-After` header (RFC 9110 §10.2.3). */
  retryAfterSeconds?: number;
  /** Underlying cause, for logs. */
  cause?: unknown;
}

/**
 * The error this package throws. It carries what an RFC 9457 problem needs (`status`, `code`,
 * `detail`, `errors`) so the server can map it without importing this class; check the brand with
 * {@link isPdfGuardError} rather than `instanceof` (house rule).
 *
 * @example
 * throw new PdfGuardError({
 *   status: 422,
 *   code: "invalid_attachment",
 *   detail: "1 attachment was refused.",
 *   errors: [{ field: "attachments[0].content_base64", code: "not_pdf", message: "The file is not a PDF." }],
 * });
 */
export class PdfGuardError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly errors: AttachmentFieldError[];
  /** Seconds for a `Retry-After` header, or null when retrying as such does not help. */
  readonly retryAfterSeconds: number | null;
  /** Brand checked by {@link isPdfGuardError}. */
  readonly isPdfGuardError = true as const;

  constructor(init: PdfGuardErrorInit) {
    super(init.detail, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "PdfGuardError";
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.errors = init.errors ?? [];
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
  }
}

/**
 * Whether a value is a {@link PdfGuardError}, also across copies of this package.
 *
 * @example
 * try { await decodeAttachments(list); } catch (e) { if (isPdfGuardError(e)) console.log(e.errors); }
 */
export function isPdfGuardError(value: unknown): value is PdfGuardError {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { isPdfGuardError?: unknown }).isPdfGuardError === true
  );
}
