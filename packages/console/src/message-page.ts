import { escapeHtml } from "@incasso/pages";

/**
 * The content of a page that only says something: a refusal (403), a page that does not exist
 * (404), a form that was not accepted.
 *
 * @example
 * messageMain("Geen toegang", "Dit deel van de console is alleen voor beheerders.", "/console/zaken");
 */
export function messageMain(title: string, text: string, back: string): string {
  return `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(text)}</p>
<p><a href="${escapeHtml(back)}">Terug naar de zaken</a></p>`;
}
