import {
  MAX_TITLE_LENGTH,
  TITLE_PREFIX,
  type TitleInput,
  type TitleLanguage,
  type TitleWriter,
} from "./title-writer-types.js";

/**
 * Options of {@link createTemplateTitleWriter}.
 *
 * @example
 * const options: TemplateTitleWriterOptions = { language: "en" };
 */
export interface TemplateTitleWriterOptions {
  /** Default `nl` (decision pdf-guard-title-form). */
  language?: TitleLanguage;
}

/**
 * Writes a title from a template, offline and deterministic: the spec's form followed by the
 * first sentence of the description or, without one, the invoice numbers.
 *
 * @example
 * const title = composeTitle({ description: "Onderhoud cv-ketel. Extra werk.", debtors: [], invoices: [] });
 * // "Overeenkomst van opdracht voor onderhoud cv-ketel"
 */
export function composeTitle(input: TitleInput, language: TitleLanguage = "nl"): string {
  const prefix = TITLE_PREFIX[language];
  const subject = subjectFromDescription(input.description) ?? subjectFromInvoices(input, language);
  return clampTitle(`${prefix} ${subject}`);
}

/**
 * The template TitleWriter (the default).
 *
 * @example
 * const title = await writeTitle(createTemplateTitleWriter(), { debtors, invoices, description: null });
 */
export function createTemplateTitleWriter(options: TemplateTitleWriterOptions = {}): TitleWriter {
  const language = options.language ?? "nl";
  return {
    name: "template",
    async write(input) {
      return composeTitle(input, language);
    },
  };
}

function subjectFromDescription(description: string | null | undefined): string | null {
  const text = (description ?? "").replace(/\s+/g, " ").trim();
  if (text.length === 0) return null;
  // First sentence only: a title names the assignment, the description tells the story.
  const first = (text.split(/(?<=[.!?])\s/)[0] ?? text).replace(/[.!?]+$/, "").trim();
  if (first.length === 0) return null;
  // "Onderhoud cv-ketel" reads as "... voor onderhoud cv-ketel"; keep capitals of acronyms ("CV").
  return /^[A-Z][a-z]/.test(first) ? first.charAt(0).toLowerCase() + first.slice(1) : first;
}

function subjectFromInvoices(input: TitleInput, language: TitleLanguage): string {
  const numbers = input.invoices.map((i) => i.invoice_number);
  const [one, ...rest] = numbers;
  if (one === undefined) return language === "nl" ? "openstaande facturen" : "outstanding invoices";
  if (rest.length === 0) return `${language === "nl" ? "factuur" : "invoice"} ${one}`;
  const listed = numbers.slice(0, 3);
  const others = numbers.length - listed.length;
  const and = language === "nl" ? "en" : "and";
  const word = language === "nl" ? "facturen" : "invoices";
  if (others === 0) return `${word} ${listed.slice(0, -1).join(", ")} ${and} ${listed[listed.length - 1]}`;
  return `${word} ${listed.join(", ")} ${and} ${others} ${language === "nl" ? (others === 1 ? "andere" : "andere") : others === 1 ? "other" : "others"}`;
}

/**
 * Cuts a title to the spec's 200 characters at a word boundary, with an ellipsis when cut.
 *
 * @example
 * clampTitle("x".repeat(300)).length; // 200
 */
export function clampTitle(title: string): string {
  const clean = title.replace(/\s+/g, " ").trim();
  const points = Array.from(clean);
  if (points.length <= MAX_TITLE_LENGTH) return clean;
  const cut = points.slice(0, MAX_TITLE_LENGTH - 1).join("");
  const atWord = cut.replace(/\s+\S*$/, "");
  return `${atWord.length > MAX_TITLE_LENGTH / 2 ? atWord : cut}…`;
}
