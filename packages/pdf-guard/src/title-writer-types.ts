import type { CheckContext, DeclaredDebtor, DeclaredInvoice } from "./document-check-types.js";

/**
 * What a title is written from: the order's description, debtors and invoices (spec CreateOrder:
 * "when absent the service generates one ... from description and invoices").
 *
 * @example
 * const input: TitleInput = { description: "Onderhoud cv-ketel", debtors: [], invoices: [{ invoice_number: "F-1", amount_cents: 12100 }] };
 */
export interface TitleInput {
  description?: string | null;
  debtors: DeclaredDebtor[];
  invoices: DeclaredInvoice[];
}

/**
 * The TitleWriter port (architecture, "Ports"): writes a claim title, at most 200 characters (spec
 * CreateOrder title), when the order has none. Implementations: {@link createTemplateTitleWriter}
 * (offline, default) and {@link createOpenAITitleWriter}. Call through {@link writeTitle}, which
 * falls back to the template when a writer fails.
 *
 * @example
 * const writer: TitleWriter = { name: "fixed", async write() { return "Overeenkomst van opdracht voor onderhoud"; } };
 */
export interface TitleWriter {
  /** Short name for logs. */
  readonly name: string;
  write(input: TitleInput, context: CheckContext): Promise<string>;
}

/**
 * Languages the titles can be written in (decision pdf-guard-title-form).
 *
 * @example
 * const language: TitleLanguage = "nl";
 */
export type TitleLanguage = "nl" | "en";

/**
 * The fixed opening of a title per language: the spec's form "agreement of assignment for ...",
 * in Dutch the contract type of art. 7:400 BW, "overeenkomst van opdracht".
 *
 * @example
 * TITLE_PREFIX.nl; // "Overeenkomst van opdracht voor"
 */
export const TITLE_PREFIX: Readonly<Record<TitleLanguage, string>> = Object.freeze({
  nl: "Overeenkomst van opdracht voor",
  en: "Agreement of assignment for",
});

/**
 * Longest title the spec allows (CreateOrder: title max 200).
 *
 * @example
 * title.length <= MAX_TITLE_LENGTH; // true for every written title
 */
export const MAX_TITLE_LENGTH = 200;
