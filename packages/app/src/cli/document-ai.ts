import type { DocumentAiConfig } from "@incasso/pdf-guard";
import type { FlagValues } from "./flag-spec.js";
import { UsageError } from "./usage-error.js";

/**
 * Which document checker and title writer `serve` and `worker` use, from OPENAI_API_KEY and the
 * `--openai-*` flags: OpenAI when the key is set, else the offline rules checker and the template
 * writer (issue 17, item 5). The key is only read from the environment, never from a flag.
 *
 * @example
 * const ai = documentAiSettings({ "openai-model": "gpt-4.1-mini" }, process.env);
 * ai.openai; // false without OPENAI_API_KEY: the rules checker and the template writer run
 */
export function documentAiSettings(
  values: FlagValues,
  env: Record<string, string | undefined> = process.env,
): { config: DocumentAiConfig; openai: boolean; model: string | undefined } {
  const key = env.OPENAI_API_KEY?.trim() ?? "";
  const model = typeof values["openai-model"] === "string" ? values["openai-model"].trim() : undefined;
  const timeout = values["openai-timeout-ms"];
  if (typeof timeout === "string" && !/^[1-9][0-9]{0,6}$/.test(timeout)) {
    throw new UsageError(`--openai-timeout-ms must be a whole number of milliseconds, not ${timeout}`);
  }
  const baseURL = typeof values["openai-base-url"] === "string" ? values["openai-base-url"] : undefined;
  if (baseURL !== undefined && !/^https?:\/\/\S+$/.test(baseURL)) {
    throw new UsageError(`--openai-base-url must be an http(s) URL, not ${baseURL}`);
  }
  if (key === "") return { config: {}, openai: false, model: undefined };
  return {
    config: {
      openaiApiKey: key,
      ...(model ? { openaiModel: model } : {}),
      ...(baseURL ? { openaiBaseURL: baseURL } : {}),
      ...(typeof timeout === "string" ? { openaiTimeoutMs: Number(timeout) } : {}),
    },
    openai: true,
    model: model || "gpt-4.1-mini",
  };
}
