import { consoleLogger, type PdfGuardLogger } from "./logger.js";
import { clampTitle, composeTitle } from "./template-title-writer.js";
import type { TitleInput, TitleLanguage, TitleWriter } from "./title-writer-types.js";

/**
 * Options of {@link writeTitle}.
 *
 * @example
 * const options: WriteTitleOptions = { timeoutMs: 10_000, language: "nl" };
 */
export interface WriteTitleOptions {
  /** Time budget for the writer. Default 20 000 ms. */
  timeoutMs?: number;
  logger?: PdfGuardLogger;
  /** Language of the template fallback. Default `nl`. */
  language?: TitleLanguage;
}

/**
 * Writes a claim title with the given writer and always returns one: when the writer fails, times
 * out or returns an empty title, the template title is used and the reason is logged. An order is
 * never refused because a title could not be written.
 *
 * @example
 * const title = order.title ?? (await writeTitle(titleWriter, { description: order.description, debtors: order.debtors, invoices: order.invoices }));
 */
export async function writeTitle(
  writer: TitleWriter,
  input: TitleInput,
  options: WriteTitleOptions = {},
): Promise<string> {
  const logger = options.logger ?? consoleLogger;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  try {
    const result = await Promise.race([writer.write(input, { signal: controller.signal, logger }), timeout]);
    if (result === "timeout") {
      controller.abort(new Error(`title writer took longer than ${timeoutMs} ms`));
      logger.warn("title writer timed out; template title used", { writer: writer.name, timeoutMs });
    } else if (typeof result === "string" && result.trim().length > 0) {
      return clampTitle(result);
    } else {
      logger.warn("title writer returned no title; template title used", { writer: writer.name });
    }
  } catch (error) {
    logger.warn("title writer failed; template title used", {
      writer: writer.name,
      error: error instanceof Error ? error.message : String(error),
    });
  } finally {
    clearTimeout(timer);
  }
  return composeTitle(input, options.language ?? "nl");
}
