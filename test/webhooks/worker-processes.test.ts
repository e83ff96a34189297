import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { openCaseSystemStore } from "@incasso/case-system";
import { newId } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { cliProcesses } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver, waitFor } from "./receiver.js";

// `incasso worker` processes on PostgreSQL: a worker killed in the middle of a delivery, and two
// workers sharing one outbox. Runs when TEST_DATABASE_URL is set, in a throwaway database.
const url = process.env.TEST_DATABASE_URL;

describe.runIf(url)("incasso worker processes on PostgreSQL", () => {
  const database = `incasso_webhooks_${randomBytes(5).toString("hex")}`;
  let admin: SqlStore;
  let store: SqlStore;
  let databaseUrl: string;
  const cli = cliProcesses();

  beforeAll(async () => {
    admin = await openCaseSystemStore({ databaseUrl: url, migrate: false });
    await admin.database.query(`CREATE DATABASE ${database}`);
    const u = new URL(url as string);
    u.pathname = `/${database}`;
    databaseUrl = u.toString();
    store = await openCaseSystemStore({ databaseUrl });
  });
  afterAll(async () => {
    cli.killAll("SIGKILL");
    await store?.close();
    await admin?.database.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin?.close();
  });

  function worker(...extra: string[]): Promise<ChildProcess> {
    const child = cli.start([
      "worker",
      "--database-url",
      databaseUrl,
      "--allow-private-webhook-targets",
      ...extra,
    ]);
    return new Promise((resolve, reject) => {
      let out = "";
      child.stdout?.on("data", (c: Buffer) => {
        out += c.toString();
        if (/"msg":"incasso worker dsp_[0-9a-f]{12} delivering webhooks from PostgreSQL/.test(out))
          resolve(child);
      });
      child.on("exit", (code) => reject(new Error(`worker exited with ${code}: ${out}`)));
    });
  }

  async function organisation(receiverUrl: string): Promise<string> {
    const { organisation } = await store.organisations.ensure({
      id: newId("org"),
      name: `Workers ${randomBytes(3).toString("hex")}`,
      creditorName: "Creditor BV",
      now: new Date(),
    });
    await store.webhookEndpoints.set({
      organisationId: organisation.id,
      url: receiverUrl,
      secret: "whsec_worker_process_secret",
      now: new Date(),
    });
    return organisation.id;
  }

  const data = {
    order_id: "ord_0123456789abcdef",
    case_number: "2026-000123",
    reference: "INV-42",
    case_event: "case_payments",
  };

  it("a worker killed during a delivery leaves the event to the next worker once its lease runs out", {
    timeout: 90_000,
  }, async () => {
    const receiver = await startReceiver((_d, n) => (n === 1 ? "hang" : 204));
    try {
      const organisationId = await organisation(receiver.url);
      const event = await store.outbox.enqueue({ organisationId, type: "payment.received", data });
      const flags = ["--lease-seconds", "8", "--timeout-ms", "3000", "--poll-interval-ms", "50"];
      const first = await worker(...flags);
      await waitFor(() => (receiver.received.length === 1 ? true : undefined), "the first request");
      first.kill("SIGKILL");
      const held = await store.outbox.findById(event.id);
      expect(held).toMatchObject({ state: "delivering", attempts: 1 });
      await worker(...flags);
      const delivered = await waitFor(async () => {
        const e = await store.outbox.findById(event.id);
        return e?.state === "delivered" ? e : undefined;
      }, "the delivery by the second worker");
      expect(delivered.attempts).toBe(2);
      expect(receiver.received.map((r) => JSON.parse(r.body.toString()).id)).toEqual([event.id, event.id]);
      const attempts = await store.outbox.attempts(event.id);
      expect(attempts.map((a) => [a.attempt, a.outcome])).toEqual([
        [1, "lease_expired"],
        [2, "delivered"],
      ]);
      expect(attempts[0]?.owner).not.toBe(attempts[1]?.owner);
    } finally {
      await receiver.close();
    }
  });

  it("two workers deliver 200 events with no attempt sent twice", { timeout: 90_000 }, async () => {
    const counts = new Map<string, number>();
    const receiver = await startReceiver((d) => {
      const id = JSON.parse(d.body.toString()).id as string;
      counts.set(id, (counts.get(id) ?? 0) + 1);
      return 200;
    });
    try {
      const organisationId = await organisation(receiver.url);
      const ids = new Set<string>();
      await store.transaction(async (tx) => {
        for (let i = 0; i < 200; i++)
          ids.add((await tx.outbox.enqueue({ organisationId, type: "case.updated", data })).id);
      });
      await Promise.all([worker("--poll-interval-ms", "50"), worker("--poll-interval-ms", "50")]);
      await waitFor(() => (receiver.received.length >= 200 ? true : undefined), "200 deliveries");
      await waitFor(async () => {
        const { rows } = await store.database.query<{ n: string }>(
          "SELECT count(*) AS n FROM webhook_events WHERE organisation_id = $1 AND state = 'delivered'",
          [organisationId],
        );
        return Number(rows[0]?.n) === 200 ? true : undefined;
      }, "200 recorded deliveries");
      expect(receiver.received.length).toBe(200);
      expect(new Set(counts.keys())).toEqual(ids);
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
      const { rows } = await store.database.query<{ owner: string; n: string }>(
        `SELECT a.owner, count(*) AS n FROM webhook_attempts a JOIN webhook_events e ON e.id = a.event_id
         WHERE e.organisation_id = $1 GROUP BY a.owner`,
        [organisationId],
      );
      expect(rows.reduce((sum, r) => sum + Number(r.n), 0)).toBe(200);
    } finally {
      await receiver.close();
    }
  });
});
