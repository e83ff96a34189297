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
  /** Explanation of this occurrence: the error's `message`, the problem's `detail`. */
  detail: string;
  /** Per-field failures, ready for the problem's `errors[]`. */
  errors?: AttachmentFieldError[];
  /** For a 503: when trying again makes sense, in seconds, for a `Retry-After` header (RFC 9110 §10.2.3). */
  retryAfterSeconds?: number;
  /** Underlying cause, for logs. */
  cause?: unknown;
}

/**
 * The error this package throws, in the project's shared error shape (the brand
 * `Symbol.for("incasso.error")`, `code`, `message`, `status`, `errors`, `headers`): the server maps
 * it with its one rule for every package's errors (decision server-error-code-table), and this
 * package depends on no other of the project for it, as @incasso/wik and @incasso/rol-router do
 * not. `message` is the problem's `detail`. Check it with {@link isPdfGuardError} rather than
 * `instanceof` (house rule).
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
  /** The HTTP status the error becomes: the codes of this package are not in the server's table. */
  readonly status: number;
  readonly code: string;
  readonly errors: AttachmentFieldError[];
  /** Response headers that belong to the error: `Retry-After` for a 503 that may be retried. */
  readonly headers: Readonly<Record<string, string>>;
  /** Seconds for a `Retry-After` header, or null when retrying as such does not help. */
  readonly retryAfterSeconds: number | null;

  constructor(init: PdfGuardErrorInit) {
    super(init.detail, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "PdfGuardError";
    this.status = init.status;
    this.code = init.code;
    this.errors = init.errors ?? [];
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
    this.headers =
      init.retryAfterSeconds === undefined ? {} : { "Retry-After": String(init.retryAfterSeconds) };
  }
}

// The brand of the project's shared error shape: the global-registry symbol, so a host recognises
// this error without this package depending on the host's error type, or on `instanceof`. On the
// prototype: it adds no member to the error itself.
Object.defineProperty(PdfGuardError.prototype, Symbol.for("incasso.error"), { value: true });

/**
 * Whether a value is a {@link PdfGuardError}, also across copies of this package: it carries the
 * shared brand, the name and a string code.
 *
 * @example
 * try { await decodeAttachments(list); } catch (e) { if (isPdfGuardError(e)) console.log(e.errors); }
 */
export function isPdfGuardError(value: unknown): value is PdfGuardError {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as { name?: unknown; code?: unknown } & Record<symbol, unknown>;
  return (
    candidate[Symbol.for("incasso.error")] === true &&
    candidate.name === "PdfGuardError" &&
    typeof candidate.code === "string"
  );
}
