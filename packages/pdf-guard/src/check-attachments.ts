import { z } from "zod";
import type { AttachmentInput } from "./attachment-schema.js";
import { decodeMeasured, measureBase64Strict } from "./base64.js";
import {
  type AttachmentFieldError,
  type AttachmentProblemCode,
  PdfGuardError,
  problemCodeForAll,
} from "./errors.js";
import { normaliseFilename } from "./filename.js";
import { createPdfInspector } from "./internal/pdf-inspector.js";
import { type AttachmentLimits, resolveAttachmentLimits } from "./limits.js";
import type { ActiveContentKind, EmbeddedXml, PdfEngine } from "./pdf-engine.js";

/**
 * Options of {@link checkAttachments} and {@link decodeAttachments}.
 *
 * @example
 * const options: CheckAttachmentsOptions = { limits: { maxAttachments: 10 }, fieldPrefix: "attachments" };
 */
export interface CheckAttachmentsOptions {
  /** Overrides of {@link DEFAULT_ATTACHMENT_LIMITS}. */
  limits?: Partial<AttachmentLimits>;
  /** Path of the list in the request, used in `errors[].field`. Default `attachments`. */
  fieldPrefix?: string;
  /**
   * The engine that parses the PDFs, bounded in time and memory: on Node the process-wide
   * `getPdfEngine()` from `@incasso/pdf-guard/node`, shared by every order so the number of parses
   * per process stays bounded. Without one, the PDFs are parsed on the calling thread and
   * `parseTimeoutMs` and `parseMemoryMb` do not apply.
   */
  engine?: PdfEngine;
  /** Aborting (for example when the client went away) takes this order's files off the queue. */
  signal?: AbortSignal;
  /**
   * Refuse a PDF that holds active content (JavaScript, a Launch action, an embedded file, bytes
   * before its header) with `pdf_active_content` instead of accepting it with the finding in
   * `active_content`. Default false: the spec asks only for a valid PDF that opens without a
   * password (decision pdf-guard-active-content).
   */
  refuseActiveContent?: boolean;
}

/**
 * An attachment that passed every check, with what the order engine and the checkers need.
 *
 * @example
 * const a: CheckedAttachment = result.attachments[0] as CheckedAttachment;
 * console.log(a.filename, a.page_count, a.text.slice(0, 80));
 */
export interface CheckedAttachment {
  status: "accepted";
  /** Position in the request's list. */
  index: number;
  /** Normalised name for storage, ending in `.pdf`. */
  filename: string;
  /** The name as sent. */
  original_filename: string;
  document_type: "invoice" | "wik_letter" | "other" | null;
  /** The decoded PDF. */
  bytes: Uint8Array;
  size_bytes: number;
  page_count: number;
  /** Text of all pages; pages are separated by a form feed on its own line ("\n\f\n"). */
  text: string;
  /** Text per page, in page order. */
  pages: string[];
  /** Whether the text was cut at `maxTextChars`. */
  text_truncated: boolean;
  /** `owner_password_only`: encrypted, but opens without a password (decision pdf-guard-owner-password). */
  encryption: "none" | "owner_password_only";
  /** Version from the header or catalog, such as "1.7", when pdf.js reports it. */
  pdf_version: string | null;
  /**
   * Kinds of active content the file holds, empty when none; the file is kept as sent either way
   * (decision pdf-guard-active-content).
   */
  active_content: ActiveContentKind[];
  /** Embedded XML files (an e-invoice's Factur-X / ZUGFeRD or UBL data), empty when none. */
  embedded_xml: EmbeddedXml[];
  /**
   * The 1-based pages without a text layer whose text was read by OCR (decision pdf-guard-ocr);
   * empty when none was, or when OCR is off or not installed.
   */
  ocr_pages: number[];
}

/**
 * An attachment that was refused, with the reasons in `errors[]` form.
 *
 * @example
 * if (a.status === "refused") console.log(a.errors[0]?.code);
 */
export interface RefusedAttachment {
  status: "refused";
  index: number;
  /** Normalised name, or null when the filename itself was refused. */
  filename: string | null;
  original_filename: string;
  document_type: "invoice" | "wik_letter" | "other" | null;
  errors: AttachmentFieldError[];
}

/**
 * What {@link checkAttachments} found. When `ok` is false, `problem_code`, `detail` and `errors` are
 * the 422 problem to send; `errors` holds the list-level errors first, then each attachment's in
 * order.
 *
 * @example
 * const r = await checkAttachments(body.attachments ?? []);
 * if (!r.ok) return problem(422, r.problem_code, r.detail, r.errors);
 */
export interface AttachmentCheckResult {
  ok: boolean;
  problem_code: AttachmentProblemCode | null;
  detail: string | null;
  errors: AttachmentFieldError[];
  /** One entry per attachment in request order; empty when the list itself was refused (too many). */
  attachments: Array<CheckedAttachment | RefusedAttachment>;
  /** Sum of the decoded sizes of the attachments whose base64 is valid, computed from the text. */
  total_bytes: number;
}

const DOCUMENT_TYPES = new Set(["invoice", "wik_letter", "other"]);

/**
 * Applies the spec's attachment rules to an order's attachments and reports, per attachment, either
 * the decoded PDF with its page count and text or the reasons it was refused. It never throws for a
 * client's mistake; see {@link decodeAttachments} for the throwing form.
 *
 * It does throw a {@link PdfGuardError} when the server cannot judge the files: 503
 * `pdf_engine_busy` when no worker became free within the engine's `maxQueueWaitMs`, 503
 * `pdf_engine_closed` after shutdown, 500 `pdf_engine_unavailable` when pdf.js cannot start. Those
 * say nothing about the files; map them to their status, never to `invalid_attachment`. Safe to
 * call concurrently: calls given the same engine share its bounded workers and queue (decision
 * pdf-guard-pdf-engine); calls without one parse on the calling thread (decision
 * pdf-guard-engine-injected).
 *
 * The order of the checks keeps the cost bounded: the count first (nothing decoded), then per file
 * the filename, the base64 and the decoded size (computed from the base64 length), then the order's
 * total; only then are the files decoded and parsed, and neither happens when the count or the
 * total is exceeded.
 *
 * @example
 * import { getPdfEngine } from "@incasso/pdf-guard/node";
 * const result = await checkAttachments(
 *   [{ filename: "factuur.pdf", content_base64: pdfBase64, document_type: "invoice" }],
 *   { engine: getPdfEngine() },
 * );
 * if (result.ok) console.log(result.attachments[0]);
 */
export async function checkAttachments(
  attachments: readonly AttachmentInput[],
  options: CheckAttachmentsOptions = {},
): Promise<AttachmentCheckResult> {
  const limits = resolveAttachmentLimits(options.limits);
  const prefix = options.fieldPrefix ?? "attachments";
  if (attachments.length > limits.maxAttachments) {
    const errors: AttachmentFieldError[] = [
      {
        field: prefix,
        code: "too_many_attachments",
        message: `At most ${limits.maxAttachments} attachments are allowed per order; ${attachments.length} were sent.`,
      },
    ];
    return refusedResult(errors, [], 0);
  }

  const listErrors: AttachmentFieldError[] = [];
  // Pass 1 measures every file from its base64 text (length minus whitespace and padding); a large
  // text within its file limit is decoded as the check of its alphabet (measureBase64Strict), and
  // those bytes are kept. The sizes are summed before anything else is decoded.
  const measured: {
    input: PreparedAttachment;
    compact: { compact: string; bytes?: Uint8Array } | null;
    size: number;
    errors: AttachmentFieldError[];
  }[] = [];
  for (const [index, attachment] of attachments.entries()) {
    // A file of megabytes holds the thread for tens of ms: other requests (GET /ping, a health
    // probe) are served between files, not after the whole order (issue 22, item 5).
    if (index > 0 && isLarge(attachments[index - 1]?.content_base64)) await nextTurn();
    const input = prepare(attachment, index, limits);
    const errors = [...input.errors];
    let compact: { compact: string; bytes?: Uint8Array } | null = null;
    let size = 0;
    const contentError = fieldRuleError(attachment.content_base64, Number.MAX_SAFE_INTEGER);
    if (contentError) {
      errors.push({ field: `${prefix}[${index}].content_base64`, ...contentError });
    } else if (typeof attachment.content_base64 === "string") {
      const result = measureBase64Strict(attachment.content_base64, limits.maxFileBytes);
      if (result.ok) {
        compact = result;
        size = result.size;
      } else {
        errors.push({
          field: `${prefix}[${index}].content_base64`,
          code: result.code,
          message: result.message,
        });
      }
    }
    measured.push({ input, compact, size, errors });
  }
  const total = measured.reduce((sum, m) => sum + m.size, 0);
  if (total > limits.maxTotalBytes) {
    listErrors.push({
      field: prefix,
      code: "attachments_too_large",
      message: `The attachments have ${total} bytes in total; at most ${limits.maxTotalBytes} are allowed per order.`,
    });
  }
  // Pass 2 decodes, only when the order as a whole is within its limits.
  const decoded: { input: PreparedAttachment; errors: AttachmentFieldError[]; bytes: Uint8Array | null }[] =
    [];
  for (const { input, compact, errors } of measured) {
    if (
      listErrors.length === 0 &&
      compact !== null &&
      compact.bytes === undefined &&
      isLarge(compact.compact)
    ) {
      await nextTurn();
    }
    decoded.push({
      input,
      errors,
      bytes: listErrors.length === 0 && compact !== null ? decodeMeasured(compact).bytes : null,
    });
  }

  const inspector = listErrors.length === 0 ? createPdfInspector(limits, options.engine ?? null) : null;
  // When one file cannot be judged (engine busy or closed) the whole check fails, so this order's
  // other files leave the queue at once instead of taking a worker for nothing.
  const cancel = new AbortController();
  const onAbort = () => cancel.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  let outcomes: Array<CheckedAttachment | RefusedAttachment>;
  try {
    outcomes = await Promise.all(
      decoded.map(async ({ input, bytes, errors }): Promise<CheckedAttachment | RefusedAttachment> => {
        if (bytes && inspector && errors.length === 0) {
          const facts = await inspector.inspect(bytes, cancel.signal).catch((error: unknown) => {
            cancel.abort(error);
            throw error;
          });
          if (facts.ok && options.refuseActiveContent === true && facts.active_content.length > 0) {
            errors.push({
              field: `${prefix}[${input.index}].content_base64`,
              code: "pdf_active_content",
              message: `The PDF holds active content (${describeActiveContent(facts.active_content)}); this server accepts PDFs without it.`,
            });
          } else if (facts.ok) {
            return {
              status: "accepted",
              index: input.index,
              filename: input.filename as string,
              original_filename: input.original_filename,
              document_type: input.document_type,
              bytes,
              size_bytes: bytes.length,
              page_count: facts.page_count,
              text: facts.text,
              pages: facts.pages,
              text_truncated: facts.text_truncated,
              encryption: facts.encryption,
              pdf_version: facts.pdf_version,
              active_content: facts.active_content,
              embedded_xml: facts.embedded_xml,
              ocr_pages: facts.ocr.pages,
            };
          } else {
            errors.push({
              field: `${prefix}[${input.index}].content_base64`,
              code: facts.code,
              message: facts.message,
            });
          }
        }
        return {
          status: "refused",
          index: input.index,
          filename: input.filename,
          original_filename: input.original_filename,
          document_type: input.document_type,
          errors,
        };
      }),
    );
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
  }

  const errors = [...listErrors, ...outcomes.flatMap((o) => (o.status === "refused" ? o.errors : []))];
  // An attachment skipped because of a list-level error has no errors of its own; it is still
  // reported as refused so the caller never stores it.
  if (errors.length > 0) return refusedResult(errors, outcomes, total);
  return {
    ok: true,
    problem_code: null,
    detail: null,
    errors: [],
    attachments: outcomes,
    total_bytes: total,
  };

  function prepare(attachment: AttachmentInput, index: number, lim: AttachmentLimits): PreparedAttachment {
    const errors: AttachmentFieldError[] = [];
    const original = typeof attachment.filename === "string" ? attachment.filename : "";
    let filename: string | null = null;
    // Codes, messages and the length unit are those of @incasso/core's order validation for the
    // same rule (zod's too_big → too_long; the length is measured by zod itself), so a rule breaks
    // the same way in both layers (decision pdf-guard-field-codes).
    const filenameError = fieldRuleError(attachment.filename, lim.maxFilenameLength);
    if (filenameError) {
      errors.push({ field: `${prefix}[${index}].filename`, ...filenameError });
    } else {
      filename = normaliseFilename(original, {
        maxLength: lim.maxFilenameLength,
        fallback: `bijlage-${index + 1}.pdf`,
      });
    }
    const type = attachment.document_type ?? null;
    if (type !== null && !DOCUMENT_TYPES.has(type)) {
      errors.push({
        field: `${prefix}[${index}].document_type`,
        code: "invalid_value",
        message: 'must be one of "invoice", "wik_letter", "other"',
      });
    }
    return {
      index,
      filename,
      original_filename: original,
      document_type: type !== null && DOCUMENT_TYPES.has(type) ? type : null,
      errors,
    };
  }
}

/**
 * Like {@link checkAttachments}, but returns only the accepted attachments and throws a
 * {@link PdfGuardError} (status 422, code `invalid_attachment` or `validation_error`, with
 * `errors[]`) when anything is refused. Engine errors (503 `pdf_engine_busy` or
 * `pdf_engine_closed`, 500 `pdf_engine_unavailable`) pass through unchanged.
 *
 * @example
 * try {
 *   const pdfs = await decodeAttachments(order.attachments ?? []);
 * } catch (error) {
 *   if (isPdfGuardError(error)) console.log(error.status, error.code, error.errors);
 * }
 */
export async function decodeAttachments(
  attachments: readonly AttachmentInput[],
  options: CheckAttachmentsOptions = {},
): Promise<CheckedAttachment[]> {
  const result = await checkAttachments(attachments, options);
  if (!result.ok) {
    throw new PdfGuardError({
      status: 422,
      code: result.problem_code ?? "invalid_attachment",
      detail: result.detail ?? "An attachment was refused.",
      errors: result.errors,
    });
  }
  return result.attachments.filter((a): a is CheckedAttachment => a.status === "accepted");
}

const ACTIVE_CONTENT_LABELS: Record<ActiveContentKind, string> = {
  javascript: "JavaScript",
  launch: "a Launch action",
  embedded_file: "an embedded file",
  bytes_before_header: "bytes before the %PDF- header",
};

function describeActiveContent(kinds: readonly ActiveContentKind[]): string {
  return kinds.map((kind) => ACTIVE_CONTENT_LABELS[kind]).join(", ");
}

// Base64 text from which a file is worth a turn of the event loop: 1 MB.
const LARGE_TEXT = 1024 * 1024;

function isLarge(text: unknown): boolean {
  return typeof text === "string" && text.length >= LARGE_TEXT;
}

// A macrotask, so the event loop reads sockets and runs timers before the next step: a promise
// alone would run ahead of them. setTimeout is on every runtime.
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

interface PreparedAttachment {
  index: number;
  filename: string | null;
  original_filename: string;
  document_type: "invoice" | "wik_letter" | "other" | null;
  errors: AttachmentFieldError[];
}

// The field rules of a required string, as @incasso/core reports them for the Attachment schema.
function fieldRuleError(
  value: unknown,
  maxLength: number,
): Pick<AttachmentFieldError, "code" | "message"> | null {
  if (value === undefined) return { code: "required", message: "is required" };
  if (typeof value !== "string") {
    const got = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
    return { code: "invalid_type", message: `must be string, got ${got}` };
  }
  if (value.length === 0) return { code: "required", message: "must not be empty" };
  // zod's own .max decides, so the count (code points in zod 4.6) is the order schema's count.
  if (!z.string().max(maxLength).safeParse(value).success) {
    return { code: "too_long", message: `must be at most ${maxLength} characters` };
  }
  return null;
}

function refusedResult(
  errors: AttachmentFieldError[],
  attachments: Array<CheckedAttachment | RefusedAttachment>,
  total: number,
): AttachmentCheckResult {
  const problem = problemCodeForAll(errors);
  const refused = new Set(errors.map((e) => e.field.match(/\[(\d+)\]/)?.[1]).filter(Boolean)).size;
  const activeContent = errors.some((e) => e.code === "pdf_active_content");
  const detail =
    problem === "invalid_attachment"
      ? `${refused} attachment${refused === 1 ? " was" : "s were"} refused: each must be a valid PDF that opens without a password${activeContent ? " and, on this server, holds no active content" : ""}.`
      : "The attachments break a limit or a field rule; see errors.";
  return { ok: false, problem_code: problem, detail, errors, attachments, total_bytes: total };
}
