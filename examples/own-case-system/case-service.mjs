// A stand-in for an agency's own case-management service: a separate process that speaks JSON over
// HTTP and keeps its cases in a JSON file of its own. It knows nothing of incasso's database; the
// host reaches it only through http-case-system.mjs (placements, files, tasks, live state) and
// case-feed.mjs (what its handlers did). Run it with `node case-service.mjs`; CASE_SERVICE_PORT
// (default 4100), HOST (default 127.0.0.1) and CASE_SERVICE_FILE (default ./.case-service.json;
// ":memory:" keeps nothing) configure it.
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";
import { calculateCollectionCosts } from "@incasso/wik";

/**
 * @typedef {{ debtor_index: number, customer_number: string | null, name: string, address: object | null }} Debtor
 * @typedef {{ order_id: string, invoice_index: number, invoice_number: string, amount_cents: number, due_date: string }} Invoice
 * @typedef {{ case_number: string, organisation_id: string, creditor_id: string | null, opened_at: string,
 *   opened_by_order_id: string, status: string, treatment_started: boolean, orders: string[],
 *   debtors: Record<string, Debtor[]>, invoices: Invoice[], files: object[], payments: object[] }} Case
 * @typedef {{ seq: number, kind: string, organisation_id: string, order_id: string, case_number: string,
 *   case_event: string, task_id?: string, outcome?: string, note?: string | null }} ChangeEvent
 */

const OPEN = new Set(["Nieuw", "In behandeling", "Aangehouden"]);

function emptyState() {
  return {
    nextCase: 1,
    /** @type {Record<string, Case>} */ cases: {},
    /** @type {Record<string, string>} order id → case number */ placements: {},
    /** @type {Record<string, object>} */ tasks: {},
    /** @type {ChangeEvent[]} */ events: [],
    nextSeq: 1,
    acked: 0,
  };
}

/**
 * The service as a node:http server on `file` (":memory:" keeps nothing). Every change is written
 * to the file before the answer, so what it answered survives a restart.
 *
 * @param {{ file?: string }} [options]
 * @returns {import("node:http").Server}
 */
export function createCaseService(options = {}) {
  const file = options.file ?? ":memory:";
  const state =
    file !== ":memory:" && existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : emptyState();
  /** Planned failures: fault name → how many calls still fail. */
  const faults = new Map();

  const save = () => {
    if (file === ":memory:") return;
    writeFileSync(`${file}.tmp`, JSON.stringify(state));
    renameSync(`${file}.tmp`, file);
  };
  const takeFault = (name) => {
    const left = faults.get(name) ?? 0;
    if (left > 0) faults.set(name, left - 1);
    return left > 0;
  };
  const emit = (kind, kase, orderId, extra = {}) => {
    state.events.push({
      seq: state.nextSeq++,
      kind,
      organisation_id: kase.organisation_id,
      order_id: orderId ?? kase.opened_by_order_id,
      case_number: kase.case_number,
      ...extra,
    });
  };

  // The agency's merge rule, which incasso's recorded rule matches (docs/decisions
  // orders-engine-multiple-open-cases): an order joins the oldest open case of its organisation
  // and creditor with a debtor of one of its customer numbers; the other open ones are reported.
  function place(input) {
    const numbers = new Set(input.debtors.map((d) => d.customer_number).filter((n) => n !== null));
    const open = Object.values(state.cases)
      .filter(
        (c) =>
          OPEN.has(c.status) &&
          c.organisation_id === input.organisationId &&
          c.creditor_id === input.creditor.id &&
          Object.values(c.debtors)
            .flat()
            .some((d) => d.customer_number !== null && numbers.has(d.customer_number)),
      )
      .sort((a, b) => a.opened_at.localeCompare(b.opened_at) || a.case_number.localeCompare(b.case_number));
    const known = state.placements[input.orderId];
    if (known) {
      // A repeat answers as the first call did: the case the order is on, never a second one.
      const kase = state.cases[known];
      const caseNew = kase.opened_by_order_id === input.orderId;
      const others = caseNew ? [] : open.filter((c) => c !== kase).map((c) => c.case_number);
      return { kase, caseNew, others, repeat: true };
    }
    const [join, ...others] = open;
    if (join) return { kase: join, caseNew: false, others: others.map((c) => c.case_number), repeat: false };
    const caseNumber = `OWN-${String(state.nextCase++).padStart(6, "0")}`;
    /** @type {Case} */
    const kase = {
      case_number: caseNumber,
      organisation_id: input.organisationId,
      creditor_id: input.creditor.id,
      opened_at: input.at,
      opened_by_order_id: input.orderId,
      status: "Nieuw",
      treatment_started: false,
      orders: [],
      debtors: {},
      invoices: [],
      files: [],
      payments: [],
    };
    state.cases[caseNumber] = kase;
    return { kase, caseNew: true, others: [], repeat: false };
  }

  /** @param {Record<string, any>} input */
  function placement(input) {
    const { kase, caseNew, others, repeat } = place(input);
    const failAddress = !repeat && takeFault("debtor_address");
    const failInvoice = !repeat && takeFault("invoice");
    state.placements[input.orderId] = kase.case_number;
    if (!kase.orders.includes(input.orderId)) kase.orders.push(input.orderId);
    // A repeat records only what is missing (the host retries with the same order id).
    const debtors =
      kase.debtors[input.orderId] ??
      input.debtors.map((d, i) => ({
        debtor_index: i,
        customer_number: d.customer_number,
        name: d.name,
        address: null,
      }));
    kase.debtors[input.orderId] = debtors;
    for (const { debtorIndex, address } of input.addresses) {
      if (failAddress && debtorIndex === 0) continue;
      const debtor = debtors[debtorIndex];
      if (debtor && debtor.address === null) debtor.address = address;
    }
    for (const { invoiceIndex, invoice } of input.invoices) {
      if (failInvoice && invoiceIndex === 0) continue;
      if (kase.invoices.some((i) => i.order_id === input.orderId && i.invoice_index === invoiceIndex))
        continue;
      kase.invoices.push({
        order_id: input.orderId,
        invoice_index: invoiceIndex,
        invoice_number: invoice.invoice_number,
        amount_cents: invoice.amount_cents,
        due_date: invoice.due_date,
      });
    }
    save();
    return {
      case_number: kase.case_number,
      case_new: caseNew,
      other_open_cases: others,
      failed_items: {
        debtor_indexes: failAddress ? [0] : [],
        invoice_indexes: failInvoice ? [0] : [],
      },
    };
  }

  function caseView(kase) {
    const principal = kase.invoices.reduce((sum, i) => sum + i.amount_cents, 0);
    const paid = kase.payments.reduce((sum, p) => sum + p.amount_cents, 0);
    // Principal plus the statutory collection costs on it (art. 2 BIK) minus payments; this
    // stand-in leaves statutory interest out. Shown once treatment started (spec OrderStatus).
    const costs = principal > 0 ? calculateCollectionCosts(principal).collection_costs_cents : 0;
    return {
      case_number: kase.case_number,
      status: kase.status,
      open: OPEN.has(kase.status),
      ...(kase.treatment_started ? { balance_due_cents: Math.max(0, principal + costs - paid) } : {}),
      orders: kase.orders,
      invoice_count: kase.invoices.length,
      principal_cents: principal,
      paid_cents: paid,
    };
  }

  /** @type {Record<string, (body: any, params: string[], url: URL) => [number, unknown?]>} */
  const routes = {
    "POST /placements": (body) => {
      if (takeFault("placement")) return [503, { error: "unavailable" }];
      return [200, placement(body)];
    },
    // Undoes a placement whose order incasso never stored (the port's withdrawPlacement): the
    // order's debtors, invoices and files leave its case, and a case it opened alone goes.
    "POST /withdrawals": (body) => {
      const caseNumber = state.placements[body.order_id];
      const kase = caseNumber === undefined ? undefined : state.cases[caseNumber];
      if (!kase || kase.organisation_id !== body.organisation_id) return [204];
      delete state.placements[body.order_id];
      delete kase.debtors[body.order_id];
      kase.orders = kase.orders.filter((o) => o !== body.order_id);
      kase.invoices = kase.invoices.filter((i) => i.order_id !== body.order_id);
      kase.files = kase.files.filter((f) => f.order_id !== body.order_id);
      const alone = kase.orders.length === 0 && kase.payments.length === 0;
      if (kase.opened_by_order_id === body.order_id && alone) delete state.cases[caseNumber];
      save();
      return [204];
    },
    "POST /files": (body) => {
      if (takeFault("attachment")) return [503, { error: "file store unavailable" }];
      const kase = state.cases[body.case_number];
      if (!kase) return [404, { error: "no such case" }];
      if (!kase.files.some((f) => f.order_id === body.order_id && f.index === body.index)) {
        kase.files.push({
          order_id: body.order_id,
          index: body.index,
          filename: body.filename,
          size: body.content_base64.length,
        });
        save();
      }
      return [204];
    },
    "POST /tasks": (body) => {
      if (!state.cases[body.case_number]) return [404, { error: "no such case" }];
      state.tasks[body.task_id] ??= { ...body, status: "open", note: null };
      save();
      return [204];
    },
    "GET /cases/:n": (_body, [n], url) => {
      const kase = state.cases[n];
      if (!kase || kase.organisation_id !== url.searchParams.get("organisation_id"))
        return [404, { error: "no such case" }];
      return [200, caseView(kase)];
    },
    // The agency's back office: its case list and what its handlers do.
    "GET /cases": () => [200, { cases: Object.values(state.cases).map(caseView) }],
    "GET /tasks": () => [200, { tasks: Object.values(state.tasks) }],
    "POST /cases/:n/status": (body, [n]) => {
      const kase = state.cases[n];
      if (!kase) return [404, { error: "no such case" }];
      if (kase.status === body.status) return [200, caseView(kase)];
      kase.status = body.status;
      if (body.status === "In behandeling") kase.treatment_started = true;
      emit(body.status === "Gesloten" ? "case_closed" : "case_updated", kase, null, { case_event: "status" });
      save();
      return [200, caseView(kase)];
    },
    "POST /cases/:n/payments": (body, [n]) => {
      const kase = state.cases[n];
      if (!kase) return [404, { error: "no such case" }];
      kase.payments.push({
        id: randomUUID(),
        amount_cents: body.amount_cents,
        payment_date: body.payment_date,
      });
      emit("payment_booked", kase, null, { case_event: "betaling_geboekt" });
      save();
      return [200, caseView(kase)];
    },
    "POST /tasks/:id/resolve": (body, [id]) => {
      const task = state.tasks[id];
      if (!task) return [404, { error: "no such task" }];
      if (task.status === "open") {
        task.status = body.outcome;
        task.note = body.note ?? null;
        emit("task_resolved", state.cases[task.case_number], task.order_id, {
          case_event: "taak_afgehandeld",
          task_id: id,
          outcome: body.outcome,
          note: task.note,
        });
        save();
      }
      return [200, task];
    },
    // The change feed: events not yet acknowledged, oldest first.
    "GET /events": () => [200, { events: state.events.filter((e) => e.seq > state.acked).slice(0, 100) }],
    "POST /events/ack": (body) => {
      state.acked = Math.max(state.acked, body.seq);
      state.events = state.events.filter((e) => e.seq > state.acked);
      save();
      return [204];
    },
    // For tests: make the next calls fail.
    "POST /faults": (body) => {
      faults.set(body.fault, (faults.get(body.fault) ?? 0) + (body.times ?? 1));
      return [204];
    },
    "DELETE /faults": () => {
      faults.clear();
      return [204];
    },
  };

  function route(method, path) {
    const parts = path.split("/").filter(Boolean);
    for (const [key, handle] of Object.entries(routes)) {
      const [m, pattern] = key.split(" ");
      const want = pattern.split("/").filter(Boolean);
      if (m !== method || want.length !== parts.length) continue;
      const params = [];
      if (
        want.every((w, i) => (w.startsWith(":") ? params.push(decodeURIComponent(parts[i])) : w === parts[i]))
      ) {
        return { handle, params };
      }
    }
    return undefined;
  }

  return createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://case-service");
      const found = route(req.method ?? "GET", url.pathname);
      let status = 404;
      let body = { error: "not found" };
      try {
        if (found)
          [status, body] = found.handle(
            chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : {},
            found.params,
            url,
          );
      } catch (error) {
        [status, body] = [400, { error: String(error) }];
      }
      if (body === undefined) res.writeHead(status).end();
      else res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const server = createCaseService({ file: process.env.CASE_SERVICE_FILE ?? ".case-service.json" });
  server.listen(Number(process.env.CASE_SERVICE_PORT ?? 4100), process.env.HOST ?? "127.0.0.1", () => {
    const { address, port } = /** @type {import("node:net").AddressInfo} */ (server.address());
    console.log(`case service listening on http://${address}:${port}`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
