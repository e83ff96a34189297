import type OpenAI from "openai";
import { z } from "zod";
import { lazyOpenAIClient, requestStructured } from "./internal/openai-structured.js";
import { clampTitle } from "./template-title-writer.js";
import {
  MAX_TITLE_LENGTH,
  TITLE_PREFIX,
  type TitleLanguage,
  type TitleWriter,
} from "./title-writer-types.js";

/**
 * Options of {@link createOpenAITitleWriter}.
 *
 * @example
 * const options: OpenAITitleWriterOptions = { apiKey: process.env.OPENAI_API_KEY ?? "", language: "nl" };
 */
export interface OpenAITitleWriterOptions {
  apiKey: string;
  /** Default `gpt-4.1-mini`. */
  model?: string;
  baseURL?: string;
  /** Time per HTTP attempt, in ms. Default 20 000. */
  timeoutMs?: number;
  /** Default 1. */
  maxRetries?: number;
  /** Default `nl` (decision pdf-guard-title-form). */
  language?: TitleLanguage;
  client?: OpenAI;
}

// No maxLength: strict structured outputs do not take length keywords (decision
// pdf-guard-openai-strict-schema). The instructions name the limit and clampTitle enforces it, so a
// title a little too long is shortened at a word instead of being thrown away.
const AnswerSchema = z.object({ title: z.string().min(1) });

/**
 * The TitleWriter on OpenAI's Responses API: the model writes the subject of the assignment from
 * the description and invoices; the answer must start with the fixed form ("Overeenkomst van
 * opdracht voor" / "Agreement of assignment for"), else it is rejected and {@link writeTitle}
 * falls back to the template.
 *
 * The `openai` package is an optional peer dependency, imported on the first title (unless
 * `client` is given). When it is not installed, writing fails with a {@link PdfGuardError} of code
 * `openai_not_installed`, and {@link writeTitle} logs it and uses the template.
 *
 * @example
 * const writer = createOpenAITitleWriter({ apiKey: process.env.OPENAI_API_KEY ?? "" });
 * const title = await writeTitle(writer, { description, debtors, invoices });
 */
export function createOpenAITitleWriter(options: OpenAITitleWriterOptions): TitleWriter {
  const model = options.model ?? "gpt-4.1-mini";
  const language = options.language ?? "nl";
  const prefix = TITLE_PREFIX[language];
  const client = lazyOpenAIClient({
    apiKey: options.apiKey,
    model,
    baseURL: options.baseURL,
    timeoutMs: options.timeoutMs ?? 20_000,
    maxRetries: options.maxRetries ?? 1,
    client: options.client,
  });
  const instructions =
    language === "nl"
      ? `Schrijf een korte titel voor een incassovordering, in het Nederlands, van de vorm "${prefix} ...", waarbij op de puntjes staat waarvoor de opdracht was (de geleverde dienst of het product), afgeleid uit de omschrijving en de facturen. Hoogstens ${MAX_TITLE_LENGTH} tekens. Geen bedragen, geen namen van personen.`
      : `Write a short title for a debt-collection claim, in English, of the form "${prefix} ...", where the dots say what the assignment was for (the service or product delivered), taken from the description and the invoices. At most ${MAX_TITLE_LENGTH} characters. No amounts, no names of people.`;
  return {
    name: "openai",
    async write(input, context) {
      const data = {
        description: input.description ?? null,
        invoices: input.invoices.map((i) => ({
          invoice_number: i.invoice_number,
          description: i.description ?? null,
        })),
      };
      const answer = await requestStructured(await client(), {
        model,
        instructions,
        content: [{ type: "input_text", text: JSON.stringify(data) }],
        schemaName: "claim_title",
        schema: AnswerSchema,
        signal: context.signal,
      });
      const title = clampTitle(answer.title);
      if (!title.toLowerCase().startsWith(prefix.toLowerCase())) {
        throw new Error(`the title does not have the form "${prefix} ..."`);
      }
      return title;
    },
  };
}
