export { findAmounts, formatEuro, parseAmountCents } from "./amounts.js";
export {
  AttachmentErrorSchema,
  type AttachmentInput,
  AttachmentSchema,
  DocumentTypeSchema,
} from "./attachment-schema.js";
export {
  type Base64DecodeResult,
  type Base64MeasureResult,
  decodeBase64Strict,
  measureBase64Strict,
} from "./base64.js";
export {
  type AttachmentCheckResult,
  type CheckAttachmentsOptions,
  type CheckedAttachment,
  checkAttachments,
  decodeAttachments,
  type RefusedAttachment,
} from "./check-attachments.js";
export {
  type CheckableAttachment,
  type CheckContext,
  type DeclaredDebtor,
  type DeclaredInvoice,
  DOCUMENT_WARNING_CODES,
  type DocumentChecker,
  type DocumentCheckInput,
  type DocumentWarning,
  type DocumentWarningCode,
  DocumentWarningSchema,
} from "./document-check-types.js";
export {
  ATTACHMENT_ISSUE_CODES,
  type AttachmentFieldError,
  type AttachmentIssueCode,
  type AttachmentProblemCode,
  isPdfGuardError,
  PdfGuardError,
  type PdfGuardErrorInit,
  problemCodeFor,
  problemCodeForAll,
} from "./errors.js";
export { type NormaliseFilenameOptions, normaliseFilename } from "./filename.js";
export { type InspectPdfOptions, inspectPdf, type PdfInspection } from "./inspect-pdf.js";
export { type AttachmentLimits, DEFAULT_ATTACHMENT_LIMITS, resolveAttachmentLimits } from "./limits.js";
export { consoleLogger, type PdfGuardLogger, silentLogger } from "./logger.js";
export { createOpenAIDocumentChecker, type OpenAIDocumentCheckerOptions } from "./openai-document-checker.js";
export { createOpenAITitleWriter, type OpenAITitleWriterOptions } from "./openai-title-writer.js";
export {
  ACTIVE_CONTENT_KINDS,
  type ActiveContentKind,
  type EmbeddedXml,
  type PdfEngine,
  type PdfOcrReport,
  type PdfParseLimits,
  type PdfParseResult,
} from "./pdf-engine.js";
export { createRulesDocumentChecker, type RulesDocumentCheckerOptions } from "./rules-document-checker.js";
export { type RunDocumentCheckOptions, runDocumentCheck } from "./run-document-check.js";
export { createDocumentChecker, createTitleWriter, type DocumentAiConfig } from "./select-implementations.js";
export {
  clampTitle,
  composeTitle,
  createTemplateTitleWriter,
  type TemplateTitleWriterOptions,
} from "./template-title-writer.js";
export {
  MAX_TITLE_LENGTH,
  TITLE_PREFIX,
  type TitleInput,
  type TitleLanguage,
  type TitleWriter,
} from "./title-writer-types.js";
export { type WriteTitleOptions, writeTitle } from "./write-title.js";
