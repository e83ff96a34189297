import { escapeHtml } from "@incasso/pages";
import { CONSOLE_CASE_STATUSES } from "./case-list-page.js";
import { letterJobErrorText, letterJobStateLabel, taskActionLabel } from "./console-labels.js";
import { csrfField, notice } from "./console-layout.js";
import type { ConsoleCaseView, ConsoleLetterJob } from "./console-operations.js";
import type { AuditRow, CaseEventRow, OrderWarningRow } from "./console-queries.js";
import { formatDate, formatEuro, formatMoment } from "./dutch-format.js";

/**
 * Everything the case page shows.
 *
 * @example
 * const input: CasePageInput = { base: "/console", view, events: [], audit: [], csrf: "token" };
 */
export interface CasePageInput {
  base: string;
  view: ConsoleCaseView;
  events: CaseEventRow[];
  audit: AuditRow[];
  /** The warnings the case's orders were answered with; none when left out. */
  warnings?: OrderWarningRow[];
  /** The case's letter jobs still to do or failed (issue 31, item 3); none when left out. */
  letterJobs?: ConsoleLetterJob[];
  csrf: string;
  /**
   * What was typed in the form that was refused, by field name, so the form shows it again
   * (issue 31, item 5).
   */
  values?: Record<string, string>;
  /** What the last change did, or why it was refused. */
  ok?: string;
  error?: string;
}

const e = escapeHtml;
// The order warning of an attachment with active content (decision pdf-guard-active-content).
const ACTIVE_CONTENT = "pdf_active_content";

function table(head: string[], rows: string[][], numeric: number[] = []): string {
  if (rows.length === 0) return "<p>Geen.</p>";
  const cell = (tag: "th" | "td", text: string, i: number) =>
    `<${tag}${tag === "th" ? ' scope="col"' : ""}${numeric.includes(i) ? ' class="num"' : ""}>${text}</${tag}>`;
  return `<table class="list"><thead><tr>${head.map((h, i) => cell("th", e(h), i)).join("")}</tr></thead>
<tbody>${rows.map((r) => `<tr>${r.map((c, i) => cell("td", c, i)).join("")}</tr>`).join("\n")}</tbody></table>`;
}

const TASK_STATUS: Record<string, string> = { open: "open", done: "afgehandeld", rejected: "afgewezen" };
const NOTE_KINDS: Record<string, string> = {
  handler: "behandelaar",
  metadata: "gegevens van de opdrachtgever",
};
const EVENT_STATE: Record<string, string> = {
  pending: "wacht",
  delivering: "bezig",
  delivered: "afgeleverd",
  failed: "mislukt",
  no_endpoint: "geen eindpunt",
};

/**
 * A delivery state in Dutch.
 *
 * @example
 * eventStateLabel("failed"); // "mislukt"
 */
export function eventStateLabel(state: string): string {
  return EVENT_STATE[state] ?? state;
}

/**
 * The case page's content: the case's facts and balance, the forms of the handler's actions (each
 * with the session's CSRF token), and its debtors, invoices, payments, tasks, letters, notes,
 * orders with their warnings, webhook events and audit trail. Attachments with active content
 * (warning `pdf_active_content`, decision pdf-guard-active-content) are also named above the
 * facts, so the handler knows before opening a file.
 *
 * @example
 * const main = caseMain({ base: "/console", view, events, audit, csrf });
 */
export function caseMain(input: CasePageInput): string {
  const { view: v, base } = input;
  const caseUrl = `${e(base)}/zaken/${encodeURIComponent(v.case_number)}`;
  const csrf = csrfField(input.csrf);
  const bal = v.balance;
  const typed = (name: string) => e(input.values?.[name] ?? "");
  const statusOptions = CONSOLE_CASE_STATUSES.filter((s) => s !== "Gesloten")
    .map((s) => `<option${s === v.status ? " selected" : ""}>${e(s)}</option>`)
    .join("");
  const actions = v.open
    ? `<section aria-labelledby="acties"><h2 id="acties">Acties</h2>
<div class="actions">
<form method="post" action="${caseUrl}/betaling" class="card">
<h3>Betaling boeken</h3>${csrf}
<label for="amount">Bedrag (€)</label><input id="amount" name="amount" inputmode="decimal" required placeholder="1.234,56" value="${typed("amount")}">
<label for="payment_date">Datum van ontvangst</label><input id="payment_date" name="payment_date" placeholder="dd-mm-jjjj" value="${typed("payment_date")}">
<button type="submit">Betaling boeken</button>
</form>
<form method="post" action="${caseUrl}/status" class="card">
<h3>Status wijzigen</h3>${csrf}
<label for="status">Status</label><select id="status" name="status">${statusOptions}</select>
<button type="submit">Status opslaan</button>
</form>
<form method="post" action="${caseUrl}/brief" class="card">
<h3>14-dagenbrief</h3>${csrf}
<p>Maakt de aanmaning van art. 6:96 lid 6 BW en legt haar vast als verzonden.</p>
<button type="submit">Brief maken</button>
</form>
<form method="post" action="${caseUrl}/notitie" class="card">
<h3>Notitie</h3>${csrf}
<label for="note">Tekst</label><textarea id="note" name="text" required maxlength="4000" rows="3">${typed("text")}</textarea>
<button type="submit">Notitie toevoegen</button>
</form>
<form method="post" action="${caseUrl}/sluiten" class="card" data-confirm="Zaak ${e(v.case_number)} sluiten?">
<h3>Sluiten</h3>${csrf}
<p>Een gesloten zaak krijgt geen nieuwe orders meer.</p>
<button type="submit" class="danger">Zaak sluiten</button>
</form>
</div></section>`
    : "";
  const taskRows = v.tasks.map((t) => [
    e(formatDate(t.created_at)),
    `<span data-action="${e(t.action)}">${e(taskActionLabel(t.action))}</span>`,
    e(t.instructions),
    e(t.reason ?? ""),
    t.amount_cents === null ? "" : formatEuro(t.amount_cents),
    e(TASK_STATUS[t.status] ?? t.status) + (t.resolution ? `: ${e(t.resolution)}` : ""),
    t.status === "open"
      ? `<form method="post" action="${caseUrl}/taken/${encodeURIComponent(t.id)}" class="inline">${csrf}
<label class="sr" for="reason-${e(t.id)}">Toelichting</label><input id="reason-${e(t.id)}" name="reason" placeholder="Toelichting (verplicht bij afwijzen)" value="${input.values?.task === t.id ? typed("reason") : ""}">
<button type="submit" name="outcome" value="done">Afgehandeld</button>
<button type="submit" name="outcome" value="rejected" class="danger">Afwijzen</button></form>`
      : "",
  ]);
  const line = (a: NonNullable<ConsoleCaseView["debtors"][number]["address"]>) =>
    `${a.street} ${a.house_number}${a.house_number_suffix ?? ""}, ${a.postal_code} ${a.city}${a.country === "NL" ? "" : ` (${a.country})`}`;
  // The newest address; the earlier ones of the same debtor below it (issue 31).
  const address = (d: ConsoleCaseView["debtors"][number]) =>
    [
      d.address ? e(line(d.address)) : "",
      ...(d.previous_addresses ?? []).map(
        (p) => `<br><small class="muted">eerder: ${e(line(p.address))}</small>`,
      ),
    ].join("");
  const warnings = input.warnings ?? [];
  const active = warnings.filter((w) => w.code === ACTIVE_CONTENT);
  const activeNotice =
    active.length === 0
      ? ""
      : `<section class="notice warning" role="note" aria-labelledby="actieve-inhoud" data-warning="${ACTIVE_CONTENT}">
<h2 id="actieve-inhoud">Let op: bijlagen met actieve inhoud</h2>
<ul>${active.map((w) => `<li>${e(w.message)} <span class="muted">Order <code>${e(w.order_id)}</code></span></li>`).join("")}</ul>
<p>Open deze bestanden alleen in een PDF-lezer die JavaScript en het starten van programma's blokkeert.</p>
</section>`;
  const orderWarningCell = (orderId: string) =>
    warnings
      .filter((w) => w.order_id === orderId)
      .map(
        (w) =>
          `<span class="warning" data-warning="${e(w.code)}"><code>${e(w.code)}</code> ${e(w.message)}</span>`,
      )
      .join("<br>");
  return `<p class="crumbs"><a href="${e(base)}/zaken">Zaken</a></p>
<h1>Zaak ${e(v.case_number)}</h1>
${notice("ok", input.ok)}
${notice("error", input.error)}
${activeNotice}
<dl class="facts">
<dt>Status</dt><dd data-field="status">${e(v.status)}</dd>
<dt>Schuldeiser</dt><dd>${e(v.creditor.name)}</dd>
<dt>Soort</dt><dd>${e(v.type)}</dd>
<dt>Referentie</dt><dd>${e(v.reference ?? "")}</dd>
<dt>Omschrijving</dt><dd>${e(v.title)}</dd>
<dt>Geopend</dt><dd>${formatMoment(v.created_at)}</dd>
${v.closed_at ? `<dt>Gesloten</dt><dd>${formatMoment(v.closed_at)}</dd>` : ""}
</dl>
<section aria-labelledby="saldo"><h2 id="saldo">Saldo op ${formatDate(bal.as_of)}</h2>
<table class="balance"><tbody>
<tr><th scope="row">Hoofdsom</th><td class="num">${formatEuro(bal.principal_cents)}</td></tr>
<tr><th scope="row">Incassokosten</th><td class="num">${formatEuro(bal.collection_costs_cents)}</td></tr>
<tr><th scope="row">Rente</th><td class="num">${formatEuro(bal.interest_cents)}</td></tr>
<tr><th scope="row">Betaald</th><td class="num">${formatEuro(bal.paid_cents)}</td></tr>
<tr class="total"><th scope="row">Openstaand</th><td class="num" data-field="balance-due">${formatEuro(bal.balance_due_cents)}</td></tr>
</tbody></table></section>
${actions}
<section aria-labelledby="debiteuren"><h2 id="debiteuren">Debiteuren</h2>
${table(
  ["Naam", "Soort", "Klantnummer", "Adres"],
  v.debtors.map((d) => [
    e(d.name),
    d.type === "business" ? "zakelijk" : "particulier",
    e(d.customer_number ?? ""),
    address(d),
  ]),
)}</section>
<section aria-labelledby="facturen"><h2 id="facturen">Facturen</h2>
${table(
  ["Factuur", "Datum", "Vervaldatum", "Bedrag", "Omschrijving"],
  v.invoices.map((i) => [
    e(i.invoice_number),
    formatDate(i.invoice_date),
    formatDate(i.due_date),
    formatEuro(i.amount_cents),
    e(i.description ?? ""),
  ]),
  [3],
)}</section>
<section aria-labelledby="betalingen"><h2 id="betalingen">Betalingen</h2>
${table(
  ["Datum", "Bedrag", "Geboekt"],
  v.payments.map((p) => [formatDate(p.payment_date), formatEuro(p.amount_cents), formatMoment(p.booked_at)]),
  [1],
)}</section>
<section aria-labelledby="taken"><h2 id="taken">Taken</h2>
${table(["Datum", "Actie", "Instructie", "Reden", "Bedrag", "Status", ""], taskRows, [4])}</section>
${letterJobsSection(input.letterJobs ?? [], caseUrl, csrf)}
<section aria-labelledby="brieven"><h2 id="brieven">Brieven</h2>
${table(
  ["Datum", "Hoofdsom", "Incassokosten", "Verzonden", "PDF"],
  v.letters.map((l) => [
    formatDate(l.letter_date),
    formatEuro(l.principal_cents),
    formatEuro(l.collection_costs_cents),
    formatMoment(l.sent_at),
    `<a href="${caseUrl}/brieven/${encodeURIComponent(l.id)}" download="${e(l.filename)}">${e(l.filename)}</a>`,
  ]),
  [1, 2],
)}</section>
<section aria-labelledby="notities"><h2 id="notities">Notities</h2>
${table(
  ["Datum", "Soort", "Tekst"],
  v.notes.map((n) => [formatMoment(n.created_at), e(NOTE_KINDS[n.kind] ?? n.kind), e(n.text)]),
)}</section>
<section aria-labelledby="orders"><h2 id="orders">Orders</h2>
${table(
  ["Order", "Soort", "Referentie", "Toegevoegd", "Waarschuwingen"],
  v.orders.map((o) => [
    `<code>${e(o.order_id)}</code>`,
    e(o.type),
    e(o.reference ?? ""),
    formatMoment(o.added_at),
    orderWarningCell(o.order_id),
  ]),
)}</section>
<section aria-labelledby="gebeurtenissen"><h2 id="gebeurtenissen">Webhook-gebeurtenissen</h2>
${table(
  ["Tijd", "Soort", "Aflevering", "Pogingen", "Laatste status"],
  input.events.map((ev) => [
    formatMoment(ev.created_at),
    `<a href="${e(base)}/webhooks/${encodeURIComponent(ev.id)}">${e(ev.type)}</a>`,
    e(eventStateLabel(ev.state)),
    String(ev.attempts),
    ev.last_status === null ? "" : String(ev.last_status),
  ]),
)}</section>
<section aria-labelledby="audit"><h2 id="audit">Wijzigingen in de console</h2>
${table(
  ["Tijd", "Door", "Wijziging", "Details"],
  input.audit.map((a) => [formatMoment(a.at), e(a.operator_name), e(a.action), e(a.detail ?? "")]),
)}</section>`;
}

/**
 * The 14-day letters of the case's pre-incasso orders that are not made yet: waiting, in the
 * making, or failed, with why the last attempt failed and a button that tries again now (issue 31,
 * item 3; decision console-needs-attention). Nothing when every letter is made.
 */
function letterJobsSection(jobs: ConsoleLetterJob[], caseUrl: string, csrf: string): string {
  if (jobs.length === 0) return "";
  const rows = jobs.map((j) => {
    const when =
      j.state === "pending" && j.due_at
        ? `volgende poging ${formatMoment(j.due_at)}`
        : j.state === "failed"
          ? `sinds ${formatMoment(j.updated_at)}`
          : "";
    const retry =
      j.state === "running"
        ? ""
        : `<form method="post" action="${caseUrl}/brieftaken/${encodeURIComponent(j.order_id)}/opnieuw" class="inline">${csrf}<button type="submit">Opnieuw proberen</button></form>`;
    return `<tr data-letter-job="${e(j.order_id)}" data-state="${e(j.state)}"><td><code>${e(j.order_id)}</code></td>
<td class="state-${e(j.state)}">${e(letterJobStateLabel(j.state))}</td><td>${when}</td><td>${j.attempts}</td>
<td>${e(letterJobErrorText(j.last_error))}</td><td>${retry}</td></tr>`;
  });
  const failed = jobs.some((j) => j.state === "failed");
  return `<section aria-labelledby="brieftaken" class="${failed ? "notice error" : "notice warning"}"><h2 id="brieftaken">14-dagenbrief nog niet gemaakt</h2>
<table class="list"><thead><tr><th scope="col">Order</th><th scope="col">Stand</th><th scope="col">Wanneer</th><th scope="col">Pogingen</th><th scope="col">Laatste fout</th><th scope="col"></th></tr></thead>
<tbody>${rows.join("\n")}</tbody></table></section>`;
}
