import type OpenAI from "openai";
import { PdfGuardError } from "../errors.js";

/**
 * Imports the OpenAI SDK on first use. `openai` is an optional peer dependency: a host that never
 * chooses the OpenAI checker or title writer needs neither the package nor its bundle weight, and
 * the main entry stays free of it for any runtime (issue 15). A missing package becomes a
 * PdfGuardError with the stable code `openai_not_installed`; any other failure passes unchanged.
 * `load` is replaceable for tests.
 */
export async function loadOpenAI(
  load: () => Promise<{ default: typeof OpenAI }> = () => import("openai"),
): Promise<typeof OpenAI> {
  try {
    return (await load()).default;
  } catch (error) {
    if (!isMissingPackage(error)) throw error;
    throw new PdfGuardError({
      status: 500,
      code: "openai_not_installed",
      detail:
        'The OpenAI document checker and title writer need the "openai" package (an optional peer dependency of @incasso/pdf-guard): install openai@^6, or configure no OpenAI API key to use the offline rules and template.',
      cause: error,
    });
  }
}

// Node says ERR_MODULE_NOT_FOUND, bundlers and other runtimes say it in the message.
function isMissingPackage(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") return true;
  const message = error instanceof Error ? error.message : String(error);
  return (
    /cannot find (package|module)|failed to resolve|could not resolve/i.test(message) &&
    /openai/.test(message)
  );
}
