import { escapeHtml } from "@incasso/pages";
import { eventStateLabel } from "./case-page.js";
import {
  letterJobErrorText,
  letterJobStateLabel,
  taskActionLabel,
  webhookFailure,
} from "./console-labels.js";
import { csrfField, notice } from "./console-layout.js";
import type { ConsoleDelivery, ConsoleLetterJob } from "./console-operations.js";
import type { OpenTaskRow } from "./console-queries.js";
import { formatEuro, formatMoment } from "./dutch-format.js";

const e = escapeHtml;

/**
 * What the "needs attention" page lists.
 *
 * @example
 * const input: AttentionInput = { base: "/console", tasks: [], letterJobs: [], deliveries: [], csrf: "t" };
 */
export interface AttentionInput {
  base: string;
  /** Open tasks of every case. */
  tasks: OpenTaskRow[];
  /** Letter jobs that failed, or whose last attempt failed and that wait for the next. */
  letterJobs: ConsoleLetterJob[];
  /** Webhook events whose delivery failed for good. */
  deliveries: ConsoleDelivery[];
  csrf: string;
  ok?: string;
  error?: string;
}

interface Row {
  at: string;
  kind: "task" | "letter" | "delivery";
  html: string;
}

/**
 * The "needs attention" page (issue 31, item 3; decision console-needs-attention): open tasks,
 * letters that were not made and webhook deliveries that failed, in one list, newest first, each
 * with its case or event and, where one applies, a button that tries again now (a letter job, a
 * delivery). A task is worked on its case page, where it is decided.
 *
 * @example
 * const main = attentionMain({ base: "/console", tasks, letterJobs, deliveries, csrf: "t" });
 */
export function attentionMain(input: AttentionInput): string {
  const b = e(input.base);
  const csrf = csrfField(input.csrf);
  const back = '<input type="hidden" name="terug" value="aandacht">';
  const caseLink = (n: string) => `<a href="${b}/zaken/${encodeURIComponent(n)}">${e(n)}</a>`;
  const rows: Row[] = [
    ...input.tasks.map((t) => ({
      at: t.created_at.toISOString(),
      kind: "task" as const,
      html: `<td>${formatMoment(t.created_at)}</td><td>Taak</td><td>${caseLink(t.case_number)}</td>
<td><span data-action="${e(t.action)}">${e(taskActionLabel(t.action))}</span>${t.amount_cents === null ? "" : ` ${formatEuro(t.amount_cents)}`}: ${e(t.instructions)}</td>
<td><a href="${b}/zaken/${encodeURIComponent(t.case_number)}#taken">Afhandelen op de zaak</a></td>`,
    })),
    ...input.letterJobs.map((j) => ({
      at: j.updated_at,
      kind: "letter" as const,
      html: `<td>${formatMoment(j.updated_at)}</td><td>14-dagenbrief ${e(letterJobStateLabel(j.state))}</td><td>${caseLink(j.case_number)}</td>
<td>${e(letterJobErrorText(j.last_error))} <span class="muted">Order <code>${e(j.order_id)}</code>, ${j.attempts} ${j.attempts === 1 ? "poging" : "pogingen"}</span></td>
<td>${
        j.state === "running"
          ? ""
          : `<form method="post" action="${b}/zaken/${encodeURIComponent(j.case_number)}/brieftaken/${encodeURIComponent(j.order_id)}/opnieuw" class="inline">${csrf}${back}<button type="submit">Opnieuw proberen</button></form>`
      }</td>`,
    })),
    ...input.deliveries.map((d) => {
      const failure = webhookFailure(d.last_error);
      return {
        at: d.created_at,
        kind: "delivery" as const,
        html: `<td>${formatMoment(d.created_at)}</td><td>Webhook ${e(eventStateLabel(d.state))}</td><td><a href="${b}/webhooks/${encodeURIComponent(d.event_id)}"><code>${e(d.event_id)}</code></a></td>
<td>${e(d.organisation)}, <code>${e(d.type)}</code>: ${e(failure.reason)}${d.last_status === null ? "" : ` (HTTP ${d.last_status})`}</td>
<td><form method="post" action="${b}/webhooks/${encodeURIComponent(d.event_id)}/opnieuw" class="inline">${csrf}<button type="submit">Opnieuw afleveren</button></form></td>`,
      };
    }),
  ];
  // Newest first across the three kinds; ISO times in UTC sort as text.
  rows.sort((x, y) => (x.at < y.at ? 1 : x.at > y.at ? -1 : 0));
  const counts = `${input.tasks.length} open ${input.tasks.length === 1 ? "taak" : "taken"}, ${input.letterJobs.length} ${input.letterJobs.length === 1 ? "brief" : "brieven"} niet gemaakt, ${input.deliveries.length} mislukte ${input.deliveries.length === 1 ? "aflevering" : "afleveringen"}`;
  return `<h1>Aandacht nodig</h1>
${notice("ok", input.ok)}
${notice("error", input.error)}
<p data-field="attention-counts">${counts}.</p>
${
  rows.length === 0
    ? "<p>Niets: geen open taken, alle brieven gemaakt, alle webhooks afgeleverd.</p>"
    : `<table class="list"><thead><tr><th scope="col">Tijd</th><th scope="col">Wat</th><th scope="col">Zaak of gebeurtenis</th><th scope="col">Toelichting</th><th scope="col"></th></tr></thead>
<tbody>${rows.map((r) => `<tr data-kind="${r.kind}">${r.html}</tr>`).join("\n")}</tbody></table>`
}`;
}
