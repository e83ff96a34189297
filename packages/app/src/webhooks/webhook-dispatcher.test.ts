import { randomBytes } from "node:crypto";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type IncassoStore, newId } from "@incasso/core";
import { openStore } from "@incasso/store-sql";
import { constructWebhookEvent } from "@incasso/webhook-signing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directWebhookOperations } from "./direct-webhook-operations.js";
import { createWebhookDispatcher } from "./webhook-dispatcher.js";

type Behaviour = (n: number) => number | "hang";
interface Hit {
  route: string;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

let store: IncassoStore;
let server: Server;
let base: string;
const behaviours = new Map<string, Behaviour>();
const hits: Hit[] = [];
const hanging: ServerResponse[] = [];
const SECRET = "whsec_dispatcher_test_secret";

beforeAll(async () => {
  store = await openStore();
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const route = (req.url ?? "").split("/")[2] ?? "";
      hits.push({ route, body: Buffer.concat(chunks).toString("utf8"), headers: req.headers });
      const n = hits.filter((h) => h.route === route).length;
      const outcome = (behaviours.get(route) ?? (() => 204))(n);
      if (outcome === "hang") hanging.push(res);
      else res.writeHead(outcome).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const r of hanging) r.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await store.close();
});

async function organisation(route: string, behaviour: Behaviour): Promise<string> {
  behaviours.set(route, behaviour);
  const { organisation } = await store.organisations.ensure({
    id: newId("org"),
    name: `Dispatch ${route}`,
    creditorName: "Creditor BV",
    now: new Date(),
  });
  await store.webhookEndpoints.set({
    organisationId: organisation.id,
    url: `${base}/r/${route}`,
    secret: SECRET,
    now: new Date(),
  });
  return organisation.id;
}

const data = (n = 1) => ({
  order_id: "ord_0123456789abcdef",
  case_number: `2026-00012${n}`,
  reference: "INV-42",
  case_event: "case_payments",
});

async function waitFor<T>(fn: () => Promise<T | undefined>, what: string): Promise<T> {
  // Bounded: 10 seconds at most, so a broken dispatcher fails the test instead of hanging it.
  for (let i = 0; i < 500; i++) {
    const value = await fn();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
}

const hitsOf = (route: string) => hits.filter((h) => h.route === route);

describe("webhook dispatcher", () => {
  it("delivers an event written in a transaction, signed so the client-side verify accepts it", async () => {
    const organisationId = await organisation("first", () => 204);
    const event = await store.transaction((tx) =>
      tx.outbox.enqueue({ organisationId, type: "payment.received", data: data() }),
    );
    const dispatcher = createWebhookDispatcher({ store, allowPrivateTargets: true, owner: "dsp_first" });
    const done = await dispatcher.runOnce();
    await dispatcher.stop();
    expect(done.find((d) => d.eventId === event.id)).toMatchObject({
      attempt: 1,
      type: "payment.received",
      recorded: true,
      nextAttemptAt: null,
      result: { outcome: "delivered", statusCode: 204 },
    });
    const [hit] = hitsOf("first");
    expect(hit?.body).toBe(event.payload);
    const verified = constructWebhookEvent(hit?.body ?? "", hit?.headers ?? {}, SECRET);
    expect(verified).toEqual({
      id: event.id,
      object: "event",
      type: "payment.received",
      created_at: event.createdAt.toISOString(),
      data: data(),
    });
    expect(await store.outbox.findById(event.id)).toMatchObject({
      state: "delivered",
      attempts: 1,
      lastStatus: 204,
    });
    const [attempt] = await store.outbox.attempts(event.id);
    expect(attempt).toMatchObject({
      attempt: 1,
      owner: "dsp_first",
      outcome: "delivered",
      statusCode: 204,
      url: `${base}/r/first`,
    });
  });

  it("sends to a private address only when allowed by the option or, without it, by INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS", async () => {
    const organisationId = await organisation("by-env", () => 204);
    const saved = process.env.INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS;
    const attempt = async (options: { allowPrivateTargets?: boolean }) => {
      const event = await store.outbox.enqueue({ organisationId, type: "case.updated", data: data() });
      const dispatcher = createWebhookDispatcher({ store, ...options });
      try {
        return (await dispatcher.deliverNow(event.id))?.result;
      } finally {
        await dispatcher.stop();
      }
    };
    try {
      delete process.env.INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS;
      expect(await attempt({})).toMatchObject({ outcome: "failed", failure: "private_target" });
      process.env.INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS = "1";
      expect(await attempt({})).toMatchObject({ outcome: "delivered", statusCode: 204 });
      // The option, when given, wins over the environment.
      expect(await attempt({ allowPrivateTargets: false })).toMatchObject({
        outcome: "failed",
        failure: "private_target",
      });
    } finally {
      if (saved === undefined) delete process.env.INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS;
      else process.env.INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS = saved;
    }
  });

  it("retries a failing receiver on the schedule and records each wait", async () => {
    const organisationId = await organisation("flaky", (n) => (n <= 2 ? 503 : 200));
    const event = await store.outbox.enqueue({ organisationId, type: "case.updated", data: data() });
    const dispatcher = createWebhookDispatcher({
      store,
      allowPrivateTargets: true,
      scheduleSeconds: [0.05, 0.1, 0.15, 0.2, 0.25],
      pollIntervalMs: 10,
    });
    expect(dispatcher.running).toBe(false);
    dispatcher.start();
    expect(dispatcher.running).toBe(true);
    const delivered = await waitFor(async () => {
      const e = await store.outbox.findById(event.id);
      return e?.state === "delivered" ? e : undefined;
    }, "the third attempt");
    const stopped = dispatcher.stop();
    // Readiness sees the worker as stopped from the call on, while its last attempt finishes.
    expect(dispatcher.running).toBe(false);
    await stopped;
    expect(delivered.attempts).toBe(3);
    expect(hitsOf("flaky").map((h) => h.body)).toEqual([event.payload, event.payload, event.payload]);
    const attempts = await store.outbox.attempts(event.id);
    expect(attempts.map((a) => [a.attempt, a.outcome, a.statusCode, a.error])).toEqual([
      [1, "failed", 503, "http_status: HTTP 503"],
      [2, "failed", 503, "http_status: HTTP 503"],
      [3, "delivered", 200, null],
    ]);
    const waits = attempts.map((a) =>
      a.nextAttemptAt && a.finishedAt ? a.nextAttemptAt.getTime() - a.finishedAt.getTime() : null,
    );
    expect(waits).toEqual([50, 100, null]);
  });

  it("fails an event after six attempts, shows it as failed, and redelivers it with a new round", async () => {
    let up = false;
    const organisationId = await organisation("down", () => (up ? 200 : 500));
    const event = await store.outbox.enqueue({ organisationId, type: "case.closed", data: data() });
    const dispatcher = createWebhookDispatcher({
      store,
      allowPrivateTargets: true,
      scheduleSeconds: [0.01, 0.01, 0.01, 0.01, 0.01],
      pollIntervalMs: 10,
    });
    dispatcher.start();
    const failed = await waitFor(async () => {
      const e = await store.outbox.findById(event.id);
      return e?.state === "failed" ? e : undefined;
    }, "the sixth attempt");
    await dispatcher.stop();
    expect(failed).toMatchObject({ attempts: 6, lastStatus: 500, nextAttemptAt: null });
    expect(hitsOf("down").length).toBe(6);
    const ops = directWebhookOperations(store, { allowPrivateTargets: true });
    const listed = await ops.listDeliveries({ failed: true, organisation: "Dispatch down" });
    expect(listed.map((d) => [d.event_id, d.state, d.attempts, d.last_error])).toEqual([
      [event.id, "failed", 6, "http_status: HTTP 500"],
    ]);
    up = true;
    const again = await ops.redeliverWebhook({ event_id: event.id });
    expect(again.event).toMatchObject({
      event_id: event.id,
      state: "delivered",
      attempts: 7,
      last_status: 200,
    });
    expect(again.attempt).toMatchObject({
      attempt: 7,
      outcome: "delivered",
      status_code: 200,
      next_attempt_at: null,
    });
    expect(hitsOf("down").length).toBe(7);
  });

  it("hands an attempt cut off by a vanished dispatcher to the next one after the lease", async () => {
    const organisationId = await organisation("crash", (n) => (n === 1 ? "hang" : 200));
    const event = await store.outbox.enqueue({ organisationId, type: "correspondence.sent", data: data() });
    const first = createWebhookDispatcher({
      store,
      allowPrivateTargets: true,
      owner: "dsp_crashes",
      leaseSeconds: 60,
    });
    const running = first.deliverNow(event.id);
    await waitFor(async () => (hitsOf("crash").length === 1 ? true : undefined), "the first request");
    await first.stop({ abandon: true });
    expect(await running).toBeUndefined();
    expect(await store.outbox.findById(event.id)).toMatchObject({
      state: "delivering",
      leaseOwner: "dsp_crashes",
    });

    // Before the lease ends nobody may take it; afterwards the next dispatcher does.
    const early = createWebhookDispatcher({ store, allowPrivateTargets: true, owner: "dsp_early" });
    expect(await early.deliverNow(event.id)).toBeUndefined();
    await early.stop();
    const later = new Date(Date.now() + 61_000);
    const second = createWebhookDispatcher({
      store,
      allowPrivateTargets: true,
      owner: "dsp_next",
      now: () => later,
    });
    const done = await second.deliverNow(event.id);
    await second.stop();
    expect(done).toMatchObject({ attempt: 2, result: { outcome: "delivered", statusCode: 200 } });
    expect(hitsOf("crash").map((h) => JSON.parse(h.body).id)).toEqual([event.id, event.id]);
    const attempts = await store.outbox.attempts(event.id);
    expect(attempts.map((a) => [a.attempt, a.owner, a.outcome])).toEqual([
      [1, "dsp_crashes", "lease_expired"],
      [2, "dsp_next", "delivered"],
    ]);
  });

  it("two dispatchers running at once send every event exactly once", async () => {
    const organisationId = await organisation("pair", () => 200);
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) {
      ids.push((await store.outbox.enqueue({ organisationId, type: "invoice.updated", data: data() })).id);
    }
    const a = createWebhookDispatcher({
      store,
      allowPrivateTargets: true,
      concurrency: 8,
      pollIntervalMs: 10,
    });
    const b = createWebhookDispatcher({
      store,
      allowPrivateTargets: true,
      concurrency: 8,
      pollIntervalMs: 10,
    });
    a.start();
    b.start();
    await waitFor(async () => (hitsOf("pair").length >= 60 ? true : undefined), "60 deliveries");
    await Promise.all([a.stop(), b.stop()]);
    const received = hitsOf("pair").map((h) => JSON.parse(h.body).id as string);
    expect(received.length).toBe(60);
    expect(new Set(received).size).toBe(60);
    expect(new Set(received)).toEqual(new Set(ids));
    const owners = new Set<string>();
    for (const id of ids) {
      const attempts = await store.outbox.attempts(id);
      expect(attempts.length).toBe(1);
      owners.add(attempts[0]?.owner ?? "");
    }
    expect([...owners].every((o) => o === a.owner || o === b.owner)).toBe(true);
  });

  it("counts an endpoint removed after the event was written as a failed attempt and schedules the next", async () => {
    const organisationId = await organisation(`gone${randomBytes(2).toString("hex")}`, () => 200);
    const event = await store.outbox.enqueue({ organisationId, type: "case.updated", data: data() });
    await store.webhookEndpoints.remove(organisationId);
    const dispatcher = createWebhookDispatcher({ store, allowPrivateTargets: true });
    const done = await dispatcher.deliverNow(event.id);
    await dispatcher.stop();
    expect(done?.result).toEqual({
      outcome: "failed",
      statusCode: null,
      durationMs: 0,
      failure: "no_endpoint",
      error: "no_endpoint: the organisation has no webhook endpoint",
    });
    expect((await store.outbox.findById(event.id))?.state).toBe("pending");
  });

  it("refuses a private target when private targets are not allowed", async () => {
    const organisationId = await organisation("private", () => 200);
    const event = await store.outbox.enqueue({ organisationId, type: "case.updated", data: data() });
    const dispatcher = createWebhookDispatcher({ store });
    const done = await dispatcher.deliverNow(event.id);
    await dispatcher.stop();
    expect(done?.result.failure).toBe("private_target");
    expect(hitsOf("private")).toEqual([]);
  });

  it("refuses a lease that a live attempt could outlast", () => {
    expect(() => createWebhookDispatcher({ store, leaseSeconds: 10, timeoutMs: 10_000 })).toThrow(
      "leaseSeconds must exceed the time-out by at least 5 seconds.",
    );
  });
});
