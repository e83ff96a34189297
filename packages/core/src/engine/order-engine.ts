import {
  type AttachmentLimits,
  createRulesDocumentChecker,
  createTemplateTitleWriter,
  type DocumentChecker,
  type PdfEngine,
  resolveAttachmentLimits,
  type TitleWriter,
} from "@incasso/pdf-guard";
import type { CaseSystem } from "../case-system-port.js";
import type { Logger } from "../logger.js";
import type { IncassoStore } from "../store-port.js";
import type { OrderHooks } from "./order-hooks.js";
import { type ResolvedOrderHooks, resolveOrderHooks } from "./order-rules.js";

/**
 * Where the engine reports what the client must not see (a failed case-system step, a failing
 * checker): the `warn` of the one {@link Logger}, which is also the shape of `@incasso/pdf-guard`'s
 * logger, so one object serves both.
 *
 * @example
 * const logger: OrderEngineLogger = { warn: (message, details) => console.warn(message, details) };
 */
export type OrderEngineLogger = Pick<Logger, "warn">;

/**
 * Options of {@link createOrderEngine}.
 *
 * @example
 * const options: OrderEngineOptions = { store, caseSystem: createBuiltInCaseSystem({ store }) };
 */
export interface OrderEngineOptions {
  store: IncassoStore;
  caseSystem: CaseSystem;
  /** Compares the PDFs with the declared data; default the offline rules checker. */
  documentChecker?: DocumentChecker;
  /** Writes a claim title when none is sent; default the Dutch template. */
  titleWriter?: TitleWriter;
  /** Overrides of pdf-guard's attachment limits (count 30, 10 MiB per file, 25 MiB per order). */
  attachmentLimits?: Partial<AttachmentLimits>;
  /**
   * Where PDFs are parsed, bounded in time and memory: on Node `getPdfEngine()` from
   * `@incasso/pdf-guard/node` (worker threads). Without one, PDFs are parsed on the calling thread
   * and the attachment limits' time and memory budgets do not apply (decision
   * pdf-guard-engine-injected).
   */
  pdfEngine?: PdfEngine;
  /**
   * Refuse a PDF that holds active content (JavaScript, a Launch action, an embedded file, bytes
   * before its header) with 422 `invalid_attachment` (`errors[].code` `pdf_active_content`).
   * Default false: such a PDF is accepted unchanged and the order gets the warning
   * `pdf_active_content` (decision pdf-guard-active-content).
   */
  refuseActivePdf?: boolean;
  /** Time budget of the document check and the title writer, each; default 30 000 ms. */
  aiTimeoutMs?: number;
  /**
   * How long an organisation's custom field definitions are kept after they were read; default
   * 5 000 ms, 0 reads them for every order (decision orders-engine-udf-definitions-cache).
   */
  udfDefinitionsTtlMs?: number;
  /**
   * A host's order rules and after-handlers, one set or several (decision orders-host-hooks):
   * rules run after validation and before placement (test mode too), handlers after the order or
   * control request is stored, off the request's path.
   */
  hooks?: OrderHooks | readonly OrderHooks[];
  logger?: OrderEngineLogger;
}

/**
 * The order engine: the store, the case system and the checkers every order function works with.
 *
 * @example
 * const engine: OrderEngine = createOrderEngine({ store, caseSystem });
 */
export interface OrderEngine {
  readonly store: IncassoStore;
  readonly caseSystem: CaseSystem;
  readonly documentChecker: DocumentChecker;
  readonly titleWriter: TitleWriter;
  readonly attachmentLimits: AttachmentLimits;
  /** The engine that parses PDFs, or null: parsed on the calling thread. */
  readonly pdfEngine: PdfEngine | null;
  /** Whether a PDF with active content is refused instead of accepted with a warning. */
  readonly refuseActivePdf: boolean;
  readonly aiTimeoutMs: number;
  /** How long custom field definitions are kept per organisation; 0 is not at all. */
  readonly udfDefinitionsTtlMs: number;
  /** The host's order hooks, merged; empty lists without any. */
  readonly hooks: ResolvedOrderHooks;
  readonly logger: OrderEngineLogger;
}

const defaultLogger: OrderEngineLogger = {
  warn: (message, details) => console.warn(`[incasso orders] ${message}`, details ?? ""),
};

/**
 * Assembles an {@link OrderEngine} with defaults: the offline rules document checker, the template
 * title writer, pdf-guard's attachment limits, PDFs parsed on the given `pdfEngine` (else on the
 * calling thread), custom field definitions kept for 5 seconds.
 *
 * @throws {TypeError} code `invalid_order_hooks` for hooks that {@link resolveOrderHooks} refuses.
 * @example
 * import { createBuiltInCaseSystem, openCaseSystemStore } from "@incasso/case-system";
 * import { getPdfEngine } from "@incasso/pdf-guard/node";
 * const store = await openCaseSystemStore(); // the store's tables and the case system's
 * const engine = createOrderEngine({
 *   store,
 *   caseSystem: createBuiltInCaseSystem({ store }),
 *   pdfEngine: getPdfEngine(),
 * });
 */
export function createOrderEngine(options: OrderEngineOptions): OrderEngine {
  return {
    store: options.store,
    caseSystem: options.caseSystem,
    documentChecker: options.documentChecker ?? createRulesDocumentChecker(),
    titleWriter: options.titleWriter ?? createTemplateTitleWriter(),
    attachmentLimits: resolveAttachmentLimits(options.attachmentLimits),
    pdfEngine: options.pdfEngine ?? null,
    refuseActivePdf: options.refuseActivePdf ?? false,
    aiTimeoutMs: options.aiTimeoutMs ?? 30_000,
    udfDefinitionsTtlMs: options.udfDefinitionsTtlMs ?? 5_000,
    hooks: resolveOrderHooks(options.hooks),
    logger: options.logger ?? defaultLogger,
  };
}
