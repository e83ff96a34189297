import type { DocumentChecker, DocumentCheckInput, DocumentWarning } from "./document-check-types.js";
import { DocumentWarningSchema } from "./document-check-types.js";
import { consoleLogger, type PdfGuardLogger } from "./logger.js";

/**
 * Options of {@link runDocumentCheck}.
 *
 * @example
 * const options: RunDocumentCheckOptions = { timeoutMs: 20_000, logger: silentLogger };
 */
export interface RunDocumentCheckOptions {
  /** Time budget for the whole check. Default 30 000 ms. */
  timeoutMs?: number;
  /** Where failures are reported. Default {@link consoleLogger}. */
  logger?: PdfGuardLogger;
}

/**
 * Runs a {@link DocumentChecker} safely. Warnings never block an order (spec: "Differences come
 * back as non-blocking warnings"), so a checker that throws, times out or returns something
 * malformed yields no warnings, and the reason is logged. Each returned warning is validated
 * against {@link DocumentWarningSchema}; an `invoice_number` that is not a declared invoice is
 * replaced by null; exact duplicates are dropped.
 *
 * @example
 * const warnings = await runDocumentCheck(createRulesDocumentChecker(), {
 *   debtors: order.debtors,
 *   invoices: order.invoices,
 *   attachments: accepted,
 * });
 */
export async function runDocumentCheck(
  checker: DocumentChecker,
  input: DocumentCheckInput,
  options: RunDocumentCheckOptions = {},
): Promise<DocumentWarning[]> {
  const logger = options.logger ?? consoleLogger;
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (input.attachments.length === 0) return [];
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  let raw: unknown;
  try {
    const result = await Promise.race([checker.check(input, { signal: controller.signal, logger }), timeout]);
    if (result === "timeout") {
      controller.abort(new Error(`document check took longer than ${timeoutMs} ms`));
      logger.warn("document check timed out; no warnings from it", { checker: checker.name, timeoutMs });
      return [];
    }
    raw = result;
  } catch (error) {
    logger.warn("document check failed; no warnings from it", {
      checker: checker.name,
      error: error instanceof Error ? error.message : String(error),
    });
    return [];
  } finally {
    clearTimeout(timer);
  }
  if (!Array.isArray(raw)) {
    logger.warn("document check returned no list; no warnings from it", { checker: checker.name });
    return [];
  }
  const declared = new Set(input.invoices.map((i) => i.invoice_number));
  const seen = new Set<string>();
  const warnings: DocumentWarning[] = [];
  for (const item of raw) {
    const parsed = DocumentWarningSchema.safeParse(item);
    if (!parsed.success) {
      logger.warn("document check returned a malformed warning; dropped", {
        checker: checker.name,
        issues: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`),
      });
      continue;
    }
    const warning = parsed.data;
    if (warning.invoice_number !== null && !declared.has(warning.invoice_number)) {
      warning.invoice_number = null;
    }
    const key = JSON.stringify([warning.code, warning.message, warning.invoice_number]);
    if (seen.has(key)) continue;
    seen.add(key);
    warnings.push(warning);
  }
  return warnings;
}
