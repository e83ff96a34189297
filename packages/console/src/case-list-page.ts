import { escapeHtml } from "@incasso/pages";
import type { CaseListRow } from "./console-queries.js";
import { formatDate, formatEuro } from "./dutch-format.js";

/**
 * The statuses a case can have (decision case-system-statuses), for the status filter.
 *
 * @example
 * CONSOLE_CASE_STATUSES.includes("Gesloten"); // true
 */
export const CONSOLE_CASE_STATUSES = ["Nieuw", "In behandeling", "Aangehouden", "Gesloten"] as const;

/**
 * The case list's content: the search form, a table of the page's cases and the link to the next
 * page.
 *
 * @example
 * const main = caseListMain({ base: "/console", q: "", status: "", rows, next: undefined });
 */
export function caseListMain(input: {
  base: string;
  q: string;
  status: string;
  rows: CaseListRow[];
  next: string | undefined;
}): string {
  const b = escapeHtml(input.base);
  const options = ["", ...CONSOLE_CASE_STATUSES]
    .map(
      (s) =>
        `<option value="${escapeHtml(s)}"${s === input.status ? " selected" : ""}>${s === "" ? "Alle statussen" : escapeHtml(s)}</option>`,
    )
    .join("");
  const rows = input.rows
    .map(
      (r) => `<tr>
<td><a href="${b}/zaken/${encodeURIComponent(r.case_number)}">${escapeHtml(r.case_number)}</a></td>
<td>${escapeHtml(r.organisation)}</td>
<td>${escapeHtml(r.reference ?? "")}</td>
<td>${escapeHtml(r.debtors)}</td>
<td>${escapeHtml(r.status)}</td>
<td class="num">${formatEuro(r.principal_cents)}</td>
<td class="num">${formatEuro(r.paid_cents)}</td>
<td class="num">${r.open_tasks}</td>
<td>${formatDate(r.created_at)}</td>
</tr>`,
    )
    .join("\n");
  const next = input.next
    ? `<p class="pager"><a rel="next" href="${escapeHtml(input.next)}">Volgende pagina</a></p>`
    : "";
  return `<h1>Zaken</h1>
<form method="get" action="${b}/zaken" class="search" role="search">
<label for="q">Zoeken</label>
<input id="q" name="q" type="search" value="${escapeHtml(input.q)}" placeholder="Zaaknummer, referentie, debiteur of klantnummer">
<label for="status">Status</label>
<select id="status" name="status">${options}</select>
<button type="submit">Zoeken</button>
</form>
${
  input.rows.length === 0
    ? "<p>Geen zaken gevonden.</p>"
    : `<table class="list">
<thead><tr><th scope="col">Zaak</th><th scope="col">Organisatie</th><th scope="col">Referentie</th><th scope="col">Debiteuren</th><th scope="col">Status</th><th scope="col" class="num">Hoofdsom</th><th scope="col" class="num">Betaald</th><th scope="col" class="num">Open taken</th><th scope="col">Geopend</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
}
${next}`;
}
