import { readFileSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { join } from "node:path";
import { createWebhookDispatcher, type WebhookDispatcher } from "@incasso/app";
import { createBuiltInCaseSystem, createCaseHandler, openCaseSystemStore } from "@incasso/case-system";
import { issueApiKey } from "@incasso/core";
import { createApi } from "@incasso/server";
import { listen } from "@incasso/server/node";
import type { SqlStore } from "@incasso/store-sql";
import { cliProcesses, newDataDir } from "@incasso/test-utils";
import { constructWebhookEvent } from "@incasso/webhook-signing";
import { afterAll, describe, expect, it } from "vitest";
import { type ReceivedDelivery, startReceiver, waitFor } from "./receiver.js";

// Issue 9 item 5: an order submitted to the reference server, a payment booked on its case by a
// handler, payment.received delivered signed to a receiver on 127.0.0.1 and verified as a client
// verifies it, and the new balance on GET /orders/{orderId}; a dispatcher stopped in the middle
// of delivering a case event, and the event arriving once a dispatcher runs again.

const today = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Amsterdam",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
}).format(new Date());
const SECRET = "whsec_case_events_end_to_end_secret_0001";

function orderBody(type: "incasso" | "pre-incasso", reference: string, customerNumber: string) {
  return {
    type,
    reference,
    debtors: [
      type === "incasso"
        ? {
            type: "business",
            company_name: "Voorbeeld B.V.",
            customer_number: customerNumber,
            address: { street: "Teststraat", house_number: "1", postal_code: "9999 ZZ", city: "Testdorp" },
          }
        : {
            type: "individual",
            first_name: "Jan",
            last_name: "Jansen",
            customer_number: customerNumber,
            address: { street: "Teststraat", house_number: "2", postal_code: "9999 ZZ", city: "Testdorp" },
          },
    ],
    // Due today: no interest yet, so the balance is principal + costs − payments exactly.
    invoices: [
      { invoice_number: `${reference}-F1`, invoice_date: today, due_date: today, amount_cents: 100_000 },
    ],
  };
}

function verified(delivery: ReceivedDelivery, secret = SECRET) {
  return constructWebhookEvent(delivery.body, delivery.headers, secret);
}

describe("case events through the reference server, in process", () => {
  let store: SqlStore;
  let server: Server;
  const dispatchers: WebhookDispatcher[] = [];
  afterAll(async () => {
    for (const d of dispatchers) await d.stop({ abandon: true });
    await new Promise((resolve) => server?.close(resolve));
    await store?.close();
  });

  it("delivers payment.received for a payment booked through the case-system API, and GET /orders/{orderId} shows the new balance; a dispatcher stopped mid-delivery leaves the case event to the next one", {
    timeout: 60_000,
  }, async () => {
    let hangOn = 0;
    const receiver = await startReceiver((_d, count) => (count === hangOn ? "hang" : 204));
    try {
      store = await openCaseSystemStore();
      const { key, record } = await issueApiKey(store, { organisation: "E2E BV", mode: "live" });
      await store.webhookEndpoints.set({
        organisationId: record.organisationId,
        url: receiver.url,
        secret: SECRET,
        now: new Date(),
      });
      const api = createApi({
        store,
        caseSystem: createBuiltInCaseSystem({ store }),
      });
      const listening = await listen(api, { port: 0, host: "127.0.0.1" });
      server = listening.server;
      const base = listening.url;
      const dispatcher = createWebhookDispatcher({ store, allowPrivateTargets: true, pollIntervalMs: 25 });
      dispatchers.push(dispatcher);
      dispatcher.start();

      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      const created = await fetch(`${base}/orders`, {
        method: "POST",
        headers,
        body: JSON.stringify(orderBody("incasso", "E2E-1", "E2E-K1")),
      });
      expect(created.status).toBe(201);
      const order = (await created.json()) as { id: string; case: { case_number: string } };
      const caseNumber = order.case.case_number;

      // A handler starts the treatment and books a payment through the case-system API.
      const handler = createCaseHandler(createBuiltInCaseSystem({ store }));
      await handler.setStatus({ case_number: caseNumber, status: "In behandeling" });
      const paid = await handler.bookPayment({ case_number: caseNumber, amount_cents: 25_000 });
      expect(paid.balance.balance_due_cents).toBe(90_000); // 100000 + BIK 15000 − 25000

      const payment = await waitFor(
        () => receiver.received.find((d) => d.headers["x-service-event"] === "payment.received"),
        "payment.received",
      );
      const event = verified(payment);
      expect(event).toEqual({
        id: expect.stringMatching(/^evt_[0-9a-f]{16}$/),
        object: "event",
        type: "payment.received",
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        data: {
          order_id: order.id,
          case_number: caseNumber,
          reference: "E2E-1",
          case_event: "case_payments",
        },
      });
      expect(() => verified(payment, "whsec_someone_else_entirely_000000000000")).toThrow();
      const updated = await waitFor(
        () => receiver.received.find((d) => d.headers["x-service-event"] === "case.updated"),
        "case.updated",
      );
      expect(verified(updated).data).toEqual({
        order_id: order.id,
        case_number: caseNumber,
        reference: "E2E-1",
        case_event: "case_status",
      });

      const status = (await (await fetch(`${base}/orders/${order.id}`, { headers })).json()) as {
        case: Record<string, unknown>;
      };
      expect(status.case).toEqual({
        case_number: caseNumber,
        new: true,
        status: "In behandeling",
        open: true,
        balance_due_cents: 90_000,
      });

      // The next case event hangs at the receiver; its dispatcher stops as a crash would.
      hangOn = receiver.received.length + 1;
      await handler.closeCase({ case_number: caseNumber });
      await waitFor(() => (receiver.received.length === hangOn ? true : undefined), "the hanging delivery");
      const hanging = verified(receiver.received[hangOn - 1] as ReceivedDelivery);
      expect(hanging.type).toBe("case.closed");
      await dispatcher.stop({ abandon: true });
      expect(await store.outbox.findById(hanging.id)).toMatchObject({ state: "delivering", attempts: 1 });

      // A dispatcher whose clock is past the lease takes the event over and delivers it.
      const next = createWebhookDispatcher({
        store,
        allowPrivateTargets: true,
        pollIntervalMs: 25,
        now: () => new Date(Date.now() + 61_000),
      });
      dispatchers.push(next);
      next.start();
      const delivered = await waitFor(async () => {
        const e = await store.outbox.findById(hanging.id);
        return e?.state === "delivered" ? e : undefined;
      }, "the delivery by the next dispatcher");
      expect(delivered.attempts).toBe(2);
      const again = receiver.received.at(-1) as ReceivedDelivery;
      expect(verified(again)).toEqual(hanging);
      expect((await store.outbox.attempts(hanging.id)).map((a) => a.outcome)).toEqual([
        "lease_expired",
        "delivered",
      ]);
    } finally {
      await receiver.close();
    }
  });
});

// The same through `incasso serve` and the handler's CLI, reaching the server through its
// operator endpoint, then working on the data directory directly once the server stopped.
const cli = cliProcesses();
const { start } = cli;
let dir = "";
afterAll(() => {
  cli.killAll("SIGKILL");
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[]) => cli.run([...args, "--data-dir", dir]);

async function json<T>(args: string[]): Promise<T> {
  const result = await run([...args, "--json"]);
  if (result.code !== 0) throw new Error(`incasso ${args.join(" ")}: ${result.err}`);
  return JSON.parse(result.out) as T;
}

describe("case events through incasso serve and the handler's CLI", () => {
  it("letter, status, payment and tasks from the CLI reach the receiver signed; the order shows balance and action status", {
    timeout: 150_000,
  }, async () => {
    dir = await newDataDir("incasso-cases-");
    const receiver = await startReceiver(() => 204);
    try {
      const serve = start(["serve", "--port", "0", "--data-dir", dir, "--allow-private-webhook-targets"]);
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        serve.stdout?.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          const m = /incasso listening on ([^\s"]+)/.exec(out);
          if (m?.[1] && out.includes('"msg":"data: ')) resolve(m[1]);
        });
        serve.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
      });
      const key = (
        await json<{ key: string }>(["keys", "create", "--organisation", "Cli BV", "--mode", "live"])
      ).key;
      // The endpoint and the letter details are independent: set side by side.
      const [{ secret }] = await Promise.all([
        json<{ secret: string }>(["webhooks", "set", "--organisation", "Cli BV", "--url", receiver.url]),
        (async () => {
          // The 14-day letter is made only with an IBAN to pay to (issue 19).
          await json([
            "letter-details",
            "set",
            "--organisation",
            "Cli BV",
            "--iban",
            "NL91 ABNA 0417 1643 00",
          ]);
          await json([
            "letter-details",
            "set",
            "--organisation",
            "Cli BV",
            "--street",
            "Kade 1",
            "--city",
            "Zwolle",
          ]);
        })(),
      ]);
      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      const created = await fetch(`${url}/orders`, {
        method: "POST",
        headers,
        body: JSON.stringify(orderBody("pre-incasso", "CLI-1", "CLI-K1")),
      });
      expect(created.status).toBe(201);
      const order = (await created.json()) as { id: string; case: { case_number: string } };
      const caseNumber = order.case.case_number;
      const data = (caseEvent: string) => ({
        order_id: order.id,
        case_number: caseNumber,
        reference: "CLI-1",
        case_event: caseEvent,
      });
      const received = (type: string, n = 1) =>
        waitFor(() => {
          const all = receiver.received.filter((d) => d.headers["x-service-event"] === type);
          return all.length >= n ? all[n - 1] : undefined;
        }, type);

      // The pre-incasso order's 14-day letter is made from its job by the server's letter runner
      // and recorded as sent (decision case-system-wik-letter-jobs).
      const sentAfterSubmission = await received("correspondence.sent");
      const letterEvent = constructWebhookEvent(
        sentAfterSubmission.body,
        sentAfterSubmission.headers,
        secret,
      );
      expect(letterEvent.data).toEqual(data("case_letters"));
      // Two reads through the server: side by side.
      const [jobs, retry] = await Promise.all([
        run(["cases", "letter-jobs"]),
        run(["cases", "retry-letter", order.id]),
      ]);
      expect(jobs.out).toBe("No letter jobs: every letter is made.\n");
      // letter_job_not_found: the not-found exit code (decision cli-exit-codes).
      expect(retry).toMatchObject({ code: 3, out: "" });
      expect(retry.err).toBe(`incasso: Order ${order.id} has no letter job.\n`);

      expect((await run(["cases", "status", caseNumber, "In behandeling"])).out).toBe(
        `${caseNumber} is In behandeling.\n`,
      );
      const pay = await run(["cases", "pay", caseNumber, "--amount-cents", "40000", "--date", today]);
      // Paid on the letter's own day, so taken as received before it: the costs are the scale over
      // the € 600,00 the law takes, not the € 150,00 the letter announced on € 1.000,00 (decision
      // case-system-collection-costs).
      expect(pay.out).toBe(
        `Booked € 400,00 received ${today} on ${caseNumber} (${/\((pay_[0-9a-f]{16})\)/.exec(pay.out)?.[1]}).\n` +
          `Balance on ${today}: principal € 1.000,00 + costs € 90,00 + interest € 0,00 - paid € 400,00 = € 690,00.\n`,
      );
      const payment = await received("payment.received");
      expect(constructWebhookEvent(payment.body, payment.headers, secret)).toMatchObject({
        type: "payment.received",
        data: data("case_payments"),
      });
      const status = (await (await fetch(`${url}/orders/${order.id}`, { headers })).json()) as {
        case: { balance_due_cents?: number };
        actions: { action: string; status: string }[];
      };
      expect(status.case.balance_due_cents).toBe(69_000);

      // A hold request becomes a task; the handler marks it done and the order shows it.
      expect(
        (
          await fetch(`${url}/orders/${order.id}/hold`, {
            method: "POST",
            headers: { authorization: headers.authorization },
          })
        ).status,
      ).toBe(202);
      const tasks = await json<{ data: { id: string; action: string; status: string }[] }>(["tasks", "list"]);
      expect(tasks.data.map((t) => [t.action, t.status])).toEqual([["hold", "open"]]);
      const taskId = tasks.data[0]?.id as string;
      expect((await run(["tasks", "done", taskId])).out).toBe(
        `${taskId} (hold on ${caseNumber}) is done; the order's action shows done.\n`,
      );
      const after = (await (await fetch(`${url}/orders/${order.id}`, { headers })).json()) as typeof status;
      expect(after.actions.map((a) => [a.action, a.status])).toEqual([["hold", "done"]]);
      await received("case.updated", 2); // the status, then the task

      // A handler's letter: written out, recorded, and announced.
      const file = join(dir, "letter.pdf");
      const letter = await json<{ id: string; file: string; collection_costs_cents: number }>([
        "cases",
        "letter",
        caseNumber,
        "--out",
        file,
      ]);
      expect(letter).toMatchObject({ file, collection_costs_cents: 9_000 }); // BIK on € 600,00 unpaid
      expect(readFileSync(file).subarray(0, 5).toString()).toBe("%PDF-");
      const { inspectPdf } = await import("@incasso/pdf-guard");
      const inspected = await inspectPdf(new Uint8Array(readFileSync(file)));
      const text = inspected.ok ? inspected.text.replace(/\s+/g, " ") : "";
      expect(text).toContain("Cli BV Kade 1 Zwolle");
      expect(text).toContain("over te maken op rekening NL91 ABNA 0417 1643 00 ten name van Cli BV,");
      await received("correspondence.sent", 2);

      const closed = await run(["cases", "close", caseNumber]);
      expect(closed.out).toBe(`${caseNumber} is closed (Gesloten).\n`);
      const closedEvent = await received("case.closed");
      expect(constructWebhookEvent(closedEvent.body, closedEvent.headers, secret).data).toEqual(
        data("case_status"),
      );

      // Stopped: the CLI works on the directory itself.
      const exited = new Promise((resolve) => serve.once("exit", resolve));
      serve.kill("SIGTERM");
      await exited;
      const view = await json<{
        status: string;
        letters: unknown[];
        payments: unknown[];
        tasks: { status: string }[];
      }>(["cases", "show", caseNumber]);
      expect(view).toMatchObject({
        status: "Gesloten",
        letters: [{}, {}],
        payments: [{}],
        tasks: [{ status: "done" }],
      });
      const list = await run(["cases", "list", "--closed"]);
      expect(list.out).toBe(
        `${caseNumber}  Gesloten  Cli BV  Jan Jansen  1 invoice € 1.000,00  paid € 400,00\n`,
      );
    } finally {
      await receiver.close();
    }
  });
});
