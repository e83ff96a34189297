import type { DocumentChecker } from "./document-check-types.js";
import { createOpenAIDocumentChecker } from "./openai-document-checker.js";
import { createOpenAITitleWriter } from "./openai-title-writer.js";
import { createRulesDocumentChecker } from "./rules-document-checker.js";
import { createTemplateTitleWriter } from "./template-title-writer.js";
import type { TitleLanguage, TitleWriter } from "./title-writer-types.js";

/**
 * Configuration that picks the implementations: OpenAI when an API key is configured, else the
 * offline rules and template (issue: "switched on when an API key is configured").
 *
 * @example
 * const config: DocumentAiConfig = { openaiApiKey: process.env.OPENAI_API_KEY, openaiModel: process.env.OPENAI_MODEL };
 */
export interface DocumentAiConfig {
  /** An empty or missing key means: offline. */
  openaiApiKey?: string | null;
  openaiModel?: string;
  openaiBaseURL?: string;
  /** Time per HTTP attempt to OpenAI, in ms. */
  openaiTimeoutMs?: number;
  /** Language of generated titles. Default `nl`. */
  titleLanguage?: TitleLanguage;
}

function hasKey(config: DocumentAiConfig): config is DocumentAiConfig & { openaiApiKey: string } {
  return typeof config.openaiApiKey === "string" && config.openaiApiKey.trim().length > 0;
}

/**
 * The DocumentChecker for a configuration.
 *
 * @example
 * const checker = createDocumentChecker({ openaiApiKey: process.env.OPENAI_API_KEY });
 * checker.name; // "openai" with a key, "rules" without
 */
export function createDocumentChecker(config: DocumentAiConfig = {}): DocumentChecker {
  if (!hasKey(config)) return createRulesDocumentChecker();
  return createOpenAIDocumentChecker({
    apiKey: config.openaiApiKey.trim(),
    ...(config.openaiModel ? { model: config.openaiModel } : {}),
    ...(config.openaiBaseURL ? { baseURL: config.openaiBaseURL } : {}),
    ...(config.openaiTimeoutMs ? { timeoutMs: config.openaiTimeoutMs } : {}),
  });
}

/**
 * The TitleWriter for a configuration.
 *
 * @example
 * const writer = createTitleWriter({ openaiApiKey: "" });
 * writer.name; // "template"
 */
export function createTitleWriter(config: DocumentAiConfig = {}): TitleWriter {
  const language = config.titleLanguage ?? "nl";
  if (!hasKey(config)) return createTemplateTitleWriter({ language });
  return createOpenAITitleWriter({
    apiKey: config.openaiApiKey.trim(),
    language,
    ...(config.openaiModel ? { model: config.openaiModel } : {}),
    ...(config.openaiBaseURL ? { baseURL: config.openaiBaseURL } : {}),
    ...(config.openaiTimeoutMs ? { timeoutMs: config.openaiTimeoutMs } : {}),
  });
}
