/**
 * Where the checkers report what went wrong. Warnings never block an order, so a failing checker
 * is only visible here (issue: "a checker that fails or times out yields no warning and logs why").
 *
 * @example
 * const logger: PdfGuardLogger = { warn: (message, details) => pino.warn(details, message) };
 */
export interface PdfGuardLogger {
  warn(message: string, details?: Record<string, unknown>): void;
}

/**
 * The default logger: one `console.warn` line per event, prefixed with the package name.
 *
 * @example
 * consoleLogger.warn("document check failed", { checker: "openai", reason: "timeout" });
 */
export const consoleLogger: PdfGuardLogger = {
  warn(message, details) {
    if (details === undefined) console.warn(`[pdf-guard] ${message}`);
    else console.warn(`[pdf-guard] ${message}`, details);
  },
};

/**
 * A logger that drops everything, for tests and for hosts that log elsewhere.
 *
 * @example
 * runDocumentCheck(checker, input, { logger: silentLogger });
 */
export const silentLogger: PdfGuardLogger = { warn() {} };
