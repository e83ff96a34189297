import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { CaseSummary, CaseTaskView, CaseView, LetterJobView } from "@incasso/case-system";
import { withOperations } from "../internal/cli-store.js";
import type { FlagValues } from "./flag-spec.js";
import { positiveInt } from "./flag-values.js";
import { printJson as print } from "./print.js";
import { UsageError } from "./usage-error.js";

/** The flags of the cases and tasks commands, as their flag tables give them (program.ts). */
type CaseFlags = Partial<
  Record<
    | "organisation"
    | "status"
    | "limit"
    | "amount-cents"
    | "date"
    | "task"
    | "out"
    | "state"
    | "case"
    | "note"
    | "reason"
    | "data-dir"
    | "database-url",
    string
  >
> &
  Partial<Record<"open" | "closed" | "failed" | "json", boolean>>;

function euro(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${sign}€ ${whole},${String(abs % 100).padStart(2, "0")}`;
}

function one(positionals: string[], what: string, command: string): string {
  const [value] = positionals;
  if (value === undefined || positionals.length !== 1)
    throw new UsageError(`${command} takes exactly one ${what}`);
  return value;
}

function caseLine(c: CaseSummary): string {
  const invoices = `${c.invoice_count} invoice${c.invoice_count === 1 ? "" : "s"}`;
  const tasks = c.open_tasks > 0 ? `  ${c.open_tasks} open task${c.open_tasks === 1 ? "" : "s"}` : "";
  return `${c.case_number}  ${c.status}  ${c.organisation}  ${c.debtors}  ${invoices} ${euro(c.principal_cents)}  paid ${euro(c.paid_cents)}${tasks}`;
}

function taskLine(t: CaseTaskView): string {
  const amount = t.amount_cents === null ? "" : ` ${euro(t.amount_cents)} on ${t.payment_date}`;
  const resolved =
    t.resolved_at === null ? "" : ` at ${t.resolved_at}${t.resolution ? `: ${t.resolution}` : ""}`;
  return `${t.id}  ${t.case_number}  ${t.action}${amount}  ${t.status}${resolved}  (${t.organisation}, ${t.order_id ?? "no order"})`;
}

function letterJobLine(j: LetterJobView): string {
  const attempts = `${j.attempts} attempt${j.attempts === 1 ? "" : "s"}`;
  const when =
    j.state === "pending"
      ? `  due ${j.due_at}`
      : j.state === "running"
        ? `  by ${j.runner} until ${j.due_at}`
        : `  since ${j.updated_at}`;
  return `${j.order_id}  ${j.case_number}  ${j.state}  ${attempts}${when}${j.last_error ? `  last error: ${j.last_error}` : ""}`;
}

function caseText(c: CaseView): string {
  const lines = [
    `${c.case_number}  ${c.status}${c.open ? "" : ` (closed ${c.closed_at})`}  ${c.type}  creditor ${c.creditor.name}`,
    `  title: ${c.title}`,
    `  reference: ${c.reference ?? "-"}`,
    `  orders: ${c.orders.map((o) => `${o.order_id}${o.reference ? ` (${o.reference})` : ""}`).join(", ")}`,
    "  debtors:",
    ...c.debtors.map((d) => {
      const a = d.address;
      const where = a
        ? `, ${a.street} ${[a.house_number, a.house_number_suffix].filter(Boolean).join(" ")}, ${a.postal_code} ${a.city}${a.country === "NL" ? "" : `, ${a.country}`}`
        : "";
      return `    ${d.name}${d.customer_number ? ` [${d.customer_number}]` : ""}${where}`;
    }),
    "  invoices:",
    ...c.invoices.map(
      (i) => `    ${i.invoice_number}  ${i.invoice_date}  due ${i.due_date}  ${euro(i.amount_cents)}`,
    ),
    "  payments:",
    ...(c.payments.length === 0
      ? ["    none"]
      : c.payments.map(
          (p) =>
            `    ${p.id}  ${p.payment_date}  ${euro(p.amount_cents)}${p.task_id ? `  for ${p.task_id}` : ""}`,
        )),
    "  tasks:",
    ...(c.tasks.length === 0 ? ["    none"] : c.tasks.map((t) => `    ${taskLine(t)}`)),
    "  letters:",
    ...(c.letters.length === 0
      ? ["    none"]
      : c.letters.map(
          (l) =>
            `    ${l.id}  ${l.letter_date}  ${l.filename}  costs ${euro(l.collection_costs_cents)} on ${euro(l.principal_cents)}`,
        )),
    "  notes:",
    ...(c.notes.length === 0
      ? ["    none"]
      : c.notes.map((n) => `    ${n.created_at}  ${n.kind}: ${n.text}`)),
    `  balance on ${c.balance.as_of}${c.in_treatment ? "" : " (not in treatment yet: the client sees no balance)"}:`,
    `    principal ${euro(c.balance.principal_cents)} + costs ${euro(c.balance.collection_costs_cents)} + interest ${euro(c.balance.interest_cents)} - paid ${euro(c.balance.paid_cents)} = ${euro(c.balance.balance_due_cents)}`,
  ];
  return `${lines.join("\n")}\n`;
}

/**
 * `incasso cases list|show|pay|status|close|letter`: a handler's work on the built-in case system,
 * directly on the data (directory or DATABASE_URL) or through a running server's operator endpoint.
 *
 * @example
 * await casesCommand("pay", { "amount-cents": "5000", "data-dir": ".data" }, ["2026-000001"]);
 */
export async function casesCommand(sub: string, flags: FlagValues, positionals: string[]): Promise<void> {
  const values = flags as CaseFlags;
  if (sub === "list") {
    if (values.open && values.closed) throw new UsageError("--open and --closed exclude each other");
    const limit = positiveInt(flags, "limit");
    const list = await withOperations(values, "cases", (ops) =>
      ops.listCases({
        ...(values.organisation !== undefined ? { organisation: values.organisation } : {}),
        ...(values.status !== undefined ? { status: values.status as never } : {}),
        ...(values.open ? { open: true } : values.closed ? { open: false } : {}),
        ...(limit ? { limit } : {}),
      }),
    );
    if (values.json) return print(list);
    if (list.data.length === 0) console.log("No cases.");
    for (const c of list.data) console.log(caseLine(c));
    return;
  }
  if (sub === "show") {
    const caseNumber = one(positionals, "case number", "cases show");
    const view = await withOperations(values, "cases", (ops) => ops.showCase({ case_number: caseNumber }));
    if (values.json) return print(view);
    process.stdout.write(caseText(view));
    return;
  }
  if (sub === "pay") {
    const caseNumber = one(positionals, "case number", "cases pay");
    const amount = positiveInt(flags, "amount-cents", "a positive whole number of cents");
    if (amount === undefined) throw new UsageError("--amount-cents is required");
    const paid = await withOperations(values, "cases", (ops) =>
      ops.payCase({
        case_number: caseNumber,
        amount_cents: amount,
        ...(values.date !== undefined ? { payment_date: values.date } : {}),
        ...(values.task !== undefined ? { task_id: values.task } : {}),
      }),
    );
    if (values.json) return print(paid);
    const b = paid.balance;
    console.log(
      `Booked ${euro(paid.amount_cents)} received ${paid.payment_date} on ${paid.case_number} (${paid.id})${paid.task_id ? `; task ${paid.task_id} is done` : ""}.`,
    );
    console.log(
      `Balance on ${b.as_of}: principal ${euro(b.principal_cents)} + costs ${euro(b.collection_costs_cents)} + interest ${euro(b.interest_cents)} - paid ${euro(b.paid_cents)} = ${euro(b.balance_due_cents)}.`,
    );
    return;
  }
  if (sub === "status") {
    const [caseNumber, status] = positionals;
    if (caseNumber === undefined || status === undefined || positionals.length !== 2) {
      throw new UsageError(
        'cases status takes a case number and a status, such as: cases status 2026-000001 "In behandeling"',
      );
    }
    const moved = await withOperations(values, "cases", (ops) =>
      ops.setCaseStatus({ case_number: caseNumber, status }),
    );
    if (values.json) return print(moved);
    console.log(`${moved.case_number} is ${moved.status}${moved.open ? "" : " (closed)"}.`);
    return;
  }
  if (sub === "close") {
    const caseNumber = one(positionals, "case number", "cases close");
    const closed = await withOperations(values, "cases", (ops) => ops.closeCase({ case_number: caseNumber }));
    if (values.json) return print(closed);
    console.log(`${closed.case_number} is closed (${closed.status}).`);
    return;
  }
  if (sub === "letter") {
    const caseNumber = one(positionals, "case number", "cases letter");
    const letter = await withOperations(values, "cases", (ops) =>
      ops.sendCaseLetter({ case_number: caseNumber }),
    );
    const file = resolve(values.out ?? letter.filename);
    const bytes = Buffer.from(letter.content_base64, "base64");
    writeFileSync(file, bytes);
    const { content_base64: _pdf, ...summary } = letter;
    if (values.json) return print({ ...summary, file });
    console.log(
      `Letter ${letter.id} for ${letter.case_number} (${letter.letter_date}) is recorded as sent: costs ${euro(letter.collection_costs_cents)} on ${euro(letter.principal_cents)}.`,
    );
    console.log(`Written to ${file} (${bytes.byteLength} bytes).`);
    return;
  }
  if (sub === "letter-jobs") {
    const state = values.failed ? "failed" : values.state;
    if (state !== undefined && !["pending", "running", "failed"].includes(state)) {
      throw new UsageError(`--state must be pending, running or failed, not ${state}`);
    }
    if (values.failed && values.state !== undefined && values.state !== "failed") {
      throw new UsageError("--failed and --state exclude each other");
    }
    const limit = positiveInt(flags, "limit");
    const list = await withOperations(values, "cases", (ops) =>
      ops.listLetterJobs({
        ...(state !== undefined ? { state: state as "pending" | "running" | "failed" } : {}),
        ...(values.case !== undefined ? { case_number: values.case } : {}),
        ...(limit ? { limit } : {}),
      }),
    );
    if (values.json) return print(list);
    if (list.data.length === 0) {
      console.log(state === undefined ? "No letter jobs: every letter is made." : `No ${state} letter jobs.`);
    }
    for (const j of list.data) console.log(letterJobLine(j));
    return;
  }
  if (sub === "retry-letter") {
    const orderId = one(positionals, "order id", "cases retry-letter");
    const job = await withOperations(values, "cases", (ops) => ops.retryLetterJob({ order_id: orderId }));
    if (values.json) return print(job);
    console.log(
      `The letter job of ${job.order_id} (${job.case_number}) is due now; a running letter runner makes it.`,
    );
    return;
  }
  throw new UsageError(
    `cases needs list, show, pay, status, close, letter, letter-jobs or retry-letter${sub ? `, not "${sub}"` : ""}`,
  );
}

/**
 * `incasso tasks list|done|reject`: the tasks control requests placed on cases.
 *
 * @example
 * await tasksCommand("done", { "data-dir": ".data" }, ["act_0123456789abcdef"]);
 */
export async function tasksCommand(sub: string, flags: FlagValues, positionals: string[]): Promise<void> {
  const values = flags as CaseFlags;
  if (sub === "list") {
    const status = values.status ?? "open";
    if (!["open", "done", "rejected", "all"].includes(status)) {
      throw new UsageError(`--status must be open, done, rejected or all, not ${status}`);
    }
    const limit = positiveInt(flags, "limit");
    const list = await withOperations(values, "tasks", (ops) =>
      ops.listTasks({
        ...(status === "all" ? {} : { status: status as "open" | "done" | "rejected" }),
        ...(values.case !== undefined ? { case_number: values.case } : {}),
        ...(values.organisation !== undefined ? { organisation: values.organisation } : {}),
        ...(limit ? { limit } : {}),
      }),
    );
    if (values.json) return print(list);
    if (list.data.length === 0) console.log(status === "all" ? "No tasks." : `No ${status} tasks.`);
    for (const t of list.data) console.log(taskLine(t));
    return;
  }
  if (sub === "done" || sub === "reject") {
    const taskId = one(positionals, "task id", `tasks ${sub}`);
    const note = sub === "done" ? values.note : (values.reason ?? values.note);
    const task = await withOperations(values, "tasks", (ops) =>
      (sub === "done" ? ops.completeTask : ops.rejectTask)({
        task_id: taskId,
        ...(note !== undefined ? { note } : {}),
      }),
    );
    if (values.json) return print(task);
    console.log(
      `${task.id} (${task.action} on ${task.case_number}) is ${task.status}; the order's action shows ${task.status}.`,
    );
    return;
  }
  throw new UsageError(`tasks needs list, done or reject${sub ? `, not "${sub}"` : ""}`);
}
