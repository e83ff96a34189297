import type { CaseSummary, CaseTaskView, CaseView, LetterJobView } from "@incasso/case-system";
import { formatDutchEuro } from "@incasso/core";
import { UsageError } from "./usage-error.js";

// How the case and task commands print for a person; `--json` prints the wire objects instead.

/**
 * The one positional argument of a command; a usage error for none or more.
 *
 * @example
 * one(["2026-000001"], "case number", "cases show"); // "2026-000001"
 */
export function one(positionals: string[], what: string, command: string): string {
  const [value] = positionals;
  if (value === undefined || positionals.length !== 1)
    throw new UsageError(`${command} takes exactly one ${what}`);
  return value;
}

/**
 * A case on one line, for `cases list`.
 *
 * @example
 * console.log(caseLine(summary));
 */
export function caseLine(c: CaseSummary): string {
  const invoices = `${c.invoice_count} invoice${c.invoice_count === 1 ? "" : "s"}`;
  const tasks = c.open_tasks > 0 ? `  ${c.open_tasks} open task${c.open_tasks === 1 ? "" : "s"}` : "";
  return `${c.case_number}  ${c.status}  ${c.organisation}  ${c.debtors}  ${invoices} ${formatDutchEuro(c.principal_cents)}  paid ${formatDutchEuro(c.paid_cents)}${tasks}`;
}

/**
 * A task on one line, for `tasks list` and `cases show`.
 *
 * @example
 * console.log(taskLine(task));
 */
export function taskLine(t: CaseTaskView): string {
  const amount = t.amount_cents === null ? "" : ` ${formatDutchEuro(t.amount_cents)} on ${t.payment_date}`;
  const resolved =
    t.resolved_at === null ? "" : ` at ${t.resolved_at}${t.resolution ? `: ${t.resolution}` : ""}`;
  return `${t.id}  ${t.case_number}  ${t.action}${amount}  ${t.status}${resolved}  (${t.organisation}, ${t.order_id ?? "no order"})`;
}

/**
 * A letter job on one line, for `cases letter-jobs`.
 *
 * @example
 * console.log(letterJobLine(job));
 */
export function letterJobLine(j: LetterJobView): string {
  const attempts = `${j.attempts} attempt${j.attempts === 1 ? "" : "s"}`;
  const when =
    j.state === "pending"
      ? `  due ${j.due_at}`
      : j.state === "running"
        ? `  by ${j.runner} until ${j.due_at}`
        : `  since ${j.updated_at}`;
  return `${j.order_id}  ${j.case_number}  ${j.state}  ${attempts}${when}${j.last_error ? `  last error: ${j.last_error}` : ""}`;
}

/**
 * A case in full, for `cases show`, without the final newline.
 *
 * @example
 * console.log(caseText(view));
 */
export function caseText(c: CaseView): string {
  const lines = [
    `${c.case_number}  ${c.status}${c.open ? "" : ` (closed ${c.closed_at})`}  ${c.type}  creditor ${c.creditor.name}`,
    `  title: ${c.title}`,
    `  reference: ${c.reference ?? "-"}`,
    `  orders: ${c.orders.map((o) => `${o.order_id}${o.reference ? ` (${o.reference})` : ""}`).join(", ")}`,
    "  debtors:",
    ...c.debtors.flatMap((d) => {
      const line = (a: NonNullable<typeof d.address>) =>
        `${a.street} ${[a.house_number, a.house_number_suffix].filter(Boolean).join(" ")}, ${a.postal_code} ${a.city}${a.country === "NL" ? "" : `, ${a.country}`}`;
      const where = d.address ? `, ${line(d.address)}` : "";
      // Each debtor once, at its newest address; earlier addresses below it (issue 31).
      return [
        `    ${d.name}${d.customer_number ? ` [${d.customer_number}]` : ""}${where}`,
        ...d.previous_addresses.map((p) => `      earlier: ${line(p.address)}`),
      ];
    }),
    "  invoices:",
    ...c.invoices.map(
      (i) =>
        `    ${i.invoice_number}  ${i.invoice_date}  due ${i.due_date}  ${formatDutchEuro(i.amount_cents)}`,
    ),
    "  payments:",
    ...(c.payments.length === 0
      ? ["    none"]
      : c.payments.map(
          (p) =>
            `    ${p.id}  ${p.payment_date}  ${formatDutchEuro(p.amount_cents)}${p.task_id ? `  for ${p.task_id}` : ""}`,
        )),
    "  tasks:",
    ...(c.tasks.length === 0 ? ["    none"] : c.tasks.map((t) => `    ${taskLine(t)}`)),
    "  letters:",
    ...(c.letters.length === 0
      ? ["    none"]
      : c.letters.map(
          (l) =>
            `    ${l.id}  ${l.letter_date}  ${l.filename}  costs ${formatDutchEuro(l.collection_costs_cents)} on ${formatDutchEuro(l.principal_cents)}`,
        )),
    "  notes:",
    ...(c.notes.length === 0
      ? ["    none"]
      : c.notes.map((n) => `    ${n.created_at}  ${n.kind}: ${n.text}`)),
    `  balance on ${c.balance.as_of}${c.in_treatment ? "" : " (not in treatment yet: the client sees no balance)"}:`,
    `    principal ${formatDutchEuro(c.balance.principal_cents)} + costs ${formatDutchEuro(c.balance.collection_costs_cents)} + interest ${formatDutchEuro(c.balance.interest_cents)} - paid ${formatDutchEuro(c.balance.paid_cents)} = ${formatDutchEuro(c.balance.balance_due_cents)}`,
  ];
  return lines.join("\n");
}
