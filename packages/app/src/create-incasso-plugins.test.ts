import { rmSync } from "node:fs";
import type { CaseChange } from "@incasso/case-system";
import { type CaseSystem, issueApiKey, type Principal } from "@incasso/core";
import { EXAMPLE_ORDER_REQUEST } from "@incasso/server/internal";
import { newDataDir } from "@incasso/test-utils";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createIncasso } from "./create-incasso.js";

// Issue 33, items 1 to 3 through createIncasso: a host's own authentication and order hooks (the
// API options), the built-in case system with the host's own onChange (console and letters stay),
// and a start that says what a host's own case system turns off.
const dirs: string[] = [];
// Each a copy of a fresh cluster (newDataDir): PostgreSQL's initdb is most of a new directory's
// cost, and nothing here is about initdb.
const tempDir = async () => {
  const dir = await newDataDir("incasso-plugins-");
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const quiet = { info() {}, warn() {}, error() {} };
const post = (authorization: string, body: unknown) =>
  new Request("http://x/api/v1/orders", {
    method: "POST",
    headers: { authorization, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

// A data directory takes seconds to open, more on a busy machine.
describe("createIncasso with a host's plugins", { timeout: 300_000 }, () => {
  it("keeps the console and the letter runner with builtInCaseSystem: { onChange }, which sees the order's case", async () => {
    const changes: CaseChange[] = [];
    const incasso = await createIncasso(
      { dataDir: await tempDir() },
      {
        logger: quiet,
        env: {},
        webhooks: false,
        operatorEndpoint: false,
        builtInCaseSystem: {
          onChange: async (change) => {
            changes.push(change);
          },
        },
      },
    );
    try {
      expect(incasso.letters).toBeDefined();
      const login = await incasso.api.fetch(new Request("http://x/console/inloggen"));
      expect(login.status).toBe(200);
      const { key } = await incasso.operations.createKey({ organisation: "Listener BV", mode: "live" });
      const res = await incasso.api.fetch(post(`Bearer ${key}`, EXAMPLE_ORDER_REQUEST));
      expect(res.status).toBe(201);
      const order = (await res.json()) as { id: string; case: { case_number: string } };
      expect(changes.some((c) => c.orderId === order.id && c.caseNumber === order.case.case_number)).toBe(
        true,
      );
    } finally {
      await incasso.stop();
    }
  });

  it("says at the start what a host's own case system turns off, and why", async () => {
    const lines: { message: string; details: unknown }[] = [];
    const own = { host: "own case system" } as unknown as CaseSystem;
    const incasso = await createIncasso(
      { dataDir: await tempDir() },
      {
        caseSystem: own,
        logger: { ...quiet, info: (message, details) => lines.push({ message, details }) },
        env: {},
        webhooks: false,
        operatorEndpoint: false,
      },
    );
    try {
      expect(lines.filter((l) => /^(console|letters): off/.test(l.message))).toEqual([
        {
          message:
            "console: off, because the case system is the host's own and the console works the built-in one only " +
            "(to keep it with your own onChange, pass builtInCaseSystem: { onChange } instead of caseSystem)",
          details: { feature: "console", reason: "own_case_system" },
        },
        {
          message:
            "letters: off, because a host's own case system sends its own 14-day letters (letters: {} runs the letter runner anyway)",
          details: { feature: "letters", reason: "own_case_system" },
        },
      ]);
      expect((await incasso.api.fetch(new Request("http://x/console/inloggen"))).status).toBe(404);
    } finally {
      await incasso.stop();
    }
  });

  it("says nothing of a feature the host switched off itself", async () => {
    const lines: string[] = [];
    const incasso = await createIncasso(
      { dataDir: await tempDir() },
      {
        caseSystem: { host: "own" } as unknown as CaseSystem,
        console: false,
        letters: false,
        logger: { ...quiet, info: (message) => lines.push(message) },
        env: {},
        webhooks: false,
        operatorEndpoint: false,
      },
    );
    try {
      expect(lines.filter((l) => /^(console|letters): off/.test(l))).toEqual([]);
    } finally {
      await incasso.stop();
    }
  });

  it("refuses caseSystem and builtInCaseSystem together", async () => {
    await expect(
      createIncasso(
        { dataDir: await tempDir() },
        {
          caseSystem: { host: "own" } as unknown as CaseSystem,
          builtInCaseSystem: { webhookEvents: false },
          logger: quiet,
          env: {},
          webhooks: false,
          operatorEndpoint: false,
        },
      ),
    ).rejects.toThrowError(
      "createIncasso: pass caseSystem (your own) or builtInCaseSystem (options of the built-in one), not both.",
    );
  });

  it("passes a host's authenticate and order hooks to the API", async () => {
    let principal: Principal | undefined;
    const incasso = await createIncasso(
      { dataDir: await tempDir() },
      {
        logger: quiet,
        env: {},
        webhooks: false,
        letters: false,
        operatorEndpoint: false,
        api: {
          authenticate: (request, { apiKey }) =>
            request.headers.get("authorization") === "Bearer host-token" ? principal : apiKey(),
          orderHooks: {
            codes: { agency_closed: "The agency takes no orders today." },
            orderRules: [() => ({ refuse: { code: "agency_closed", message: "Closed today." } })],
          },
        },
      },
    );
    try {
      const { record } = await issueApiKey(incasso.store, { organisation: "Token BV", mode: "test" });
      principal = {
        keyId: "usr_1",
        organisationId: record.organisationId,
        organisationName: "Token BV",
        creditorName: "Token BV",
        mode: "test",
        visibility: "own",
        creditorManagement: false,
        rateLimits: { perMinute: 10, perDay: 100 },
      };
      const res = await incasso.api.fetch(post("Bearer host-token", EXAMPLE_ORDER_REQUEST));
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ code: "agency_closed", detail: "Closed today." });
      const table = JSON.stringify(incasso.api.openapi());
      expect(table).toContain("| `agency_closed` | 422 | The agency takes no orders today. |");
    } finally {
      await incasso.stop();
    }
  });

  it("runs a plugin's handlers that a stopped process never finished, after its start, once (the handler sweeper)", async () => {
    const dataDir = await tempDir();
    const options = {
      logger: quiet,
      env: {},
      webhooks: false,
      letters: false,
      operatorEndpoint: false,
    } as const;
    // The first process stops while its handler runs: the order is stored, its handler never settles.
    const first = await createIncasso(
      { dataDir },
      {
        ...options,
        handlerSweeper: false,
        plugins: [{ name: "stuck", orderHooks: { orderPlaced: [() => new Promise<void>(() => {})] } }],
      },
    );
    let orderId: string;
    try {
      const { key } = await first.operations.createKey({ organisation: "Sweep BV", mode: "live" });
      const res = await first.api.fetch(post(`Bearer ${key}`, EXAMPLE_ORDER_REQUEST));
      expect(res.status).toBe(201);
      orderId = ((await res.json()) as { id: string }).id;
    } finally {
      await first.stop();
    }
    // The next process has the plugin's handler, which needs what the plugin's start opened.
    let seen: (event: { id: string; replayed: boolean; started: boolean }) => void = () => {};
    const swept = new Promise<{ id: string; replayed: boolean; started: boolean }>((resolve) => {
      seen = resolve;
    });
    let started = false;
    const next = await createIncasso(
      { dataDir },
      {
        ...options,
        handlerSweeper: { graceMs: 50 },
        plugins: [
          {
            name: "sweep",
            start: () => {
              started = true;
            },
            orderHooks: {
              orderPlaced: [(event) => seen({ id: event.order.id, replayed: event.replayed, started })],
            },
          },
        ],
      },
    );
    try {
      expect(await swept).toEqual({ id: orderId, replayed: true, started: true });
      await vi.waitFor(async () =>
        expect((await next.store.database.query("SELECT id FROM pending_handlers")).rows).toEqual([]),
      );
    } finally {
      await next.stop();
    }
  });
});
