import { rmSync } from "node:fs";
import { newDataDir } from "@incasso/test-utils";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createIncasso } from "./create-incasso.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

// Each a copy of a fresh cluster (newDataDir): PostgreSQL's initdb is most of a new directory's
// cost, and nothing here is about initdb.
const tempDir = async () => {
  const dir = await newDataDir("incasso-ready-");
  dirs.push(dir);
  return dir;
};

const T0 = new Date("2026-11-21T10:00:00.000Z");

describe("createIncasso readiness", () => {
  it("is ready with the database migrated and both workers running, reports the outbox age, and is unready once stopping", {
    timeout: 60_000,
  }, async () => {
    const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    let clock = T0;
    const incasso = await createIncasso(
      { dataDir: await tempDir() },
      {
        operatorEndpoint: false,
        startLines: false,
        logger,
        now: () => clock,
        webhooks: { pollIntervalMs: 60_000 },
      },
    );
    try {
      const probe = async () => {
        const res = await incasso.api.fetch(new Request("http://localhost/readyz"));
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      expect(await probe()).toEqual({
        status: 200,
        body: {
          status: "ready",
          checks: {
            database: "ok",
            migrations: "ok",
            webhook_dispatcher: "running",
            letter_runner: "running",
          },
          details: { outbox_oldest_due_seconds: 0 },
        },
      });

      // An event due since T0 without an endpoint is not due (no_endpoint); with one it is, and ages.
      const { organisation } = await incasso.store.organisations.ensure({
        id: "org_00000000000000r1",
        name: "Ready Org",
        creditorName: "Ready",
        now: T0,
      });
      await incasso.store.webhookEndpoints.set({
        organisationId: organisation.id,
        url: "http://127.0.0.1:9/hook",
        secret: "whsec_readiness_secret",
        now: T0,
      });
      await incasso.store.outbox.enqueue({
        organisationId: organisation.id,
        type: "case.updated",
        data: {
          order_id: "ord_0123456789abcdef",
          case_number: "2026-000001",
          reference: "R",
          case_event: "case_updated",
        },
        now: T0,
      });
      clock = new Date(T0.getTime() + 95_500);
      expect((await probe()).body.details).toEqual({ outbox_oldest_due_seconds: 95 });
      // A backlog alone never makes the service unready.
      expect((await probe()).status).toBe(200);

      const stopping = incasso.stop();
      const during = await incasso.readiness();
      expect(during.ready).toBe(false);
      expect(during.checks).toMatchObject({ webhook_dispatcher: "stopped", letter_runner: "stopped" });
      await stopping;
      // Closed store: the database check fails, and the report names no cause.
      const after = await incasso.readiness();
      expect(after).toEqual({
        ready: false,
        checks: {
          database: "failing",
          migrations: "unknown",
          webhook_dispatcher: "stopped",
          letter_runner: "stopped",
        },
        details: { outbox_oldest_due_seconds: null },
      });
      expect(logger.error).toHaveBeenCalledWith("readiness: the database did not answer", expect.any(Object));
    } finally {
      await incasso.stop();
    }
  });

  it("reports switched-off workers as off and still ready", { timeout: 60_000 }, async () => {
    const incasso = await createIncasso(
      { dataDir: await tempDir() },
      {
        operatorEndpoint: false,
        webhooks: false,
        letters: false,
        startLines: false,
        logger: { info() {}, warn() {}, error() {} },
      },
    );
    try {
      const report = await incasso.readiness();
      expect(report).toEqual({
        ready: true,
        checks: { database: "ok", migrations: "ok", webhook_dispatcher: "off", letter_runner: "off" },
        details: { outbox_oldest_due_seconds: 0 },
      });
      const live = await incasso.api.fetch(new Request("http://localhost/healthz"));
      expect([live.status, await live.json()]).toEqual([200, { status: "ok" }]);
    } finally {
      await incasso.stop();
    }
  });
});
