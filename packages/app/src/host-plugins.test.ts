import { rmSync } from "node:fs";
import { issueApiKey } from "@incasso/core";
import { definePlugin, defineRoute, requirePrincipal } from "@incasso/server";
import { EXAMPLE_ORDER_REQUEST } from "@incasso/server/internal";
import type { SqlStore } from "@incasso/store-sql";
import { newDataDir } from "@incasso/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { createIncasso } from "./create-incasso.js";
import type { HostPlugin } from "./host-plugins.js";

// Issue 33, item 4: a plugin brings tables (applied with the others, in its own range) and a
// lifecycle (start in order after the service is composed, close in reverse order at stop()).
const dirs: string[] = [];
// Each a copy of a fresh cluster (newDataDir): PostgreSQL's initdb is most of a new directory's
// cost, and nothing here is about initdb.
const tempDir = async () => {
  const dir = await newDataDir("incasso-host-plugins-");
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const quiet = { info() {}, warn() {}, error() {} };
const base = { logger: quiet, env: {}, webhooks: false, letters: false, operatorEndpoint: false } as const;

// A data directory takes seconds to open, more on a busy machine.
describe("createIncasso({ plugins })", { timeout: 300_000 }, () => {
  it("applies a plugin's migrations, serves its route, runs its hooks, and starts and closes plugins in order", async () => {
    const calls: string[] = [];
    let db: SqlStore["database"] | undefined;
    let noted: (orderId: string) => void = () => {};
    const note = new Promise<string>((resolve) => {
      noted = resolve;
    });
    const notes: HostPlugin = {
      name: "notes",
      migrations: [
        {
          version: 1000,
          name: "agency notes",
          statements: ["CREATE TABLE agency_notes (order_id text PRIMARY KEY)"],
        },
      ],
      api: definePlugin({
        name: "notes",
        routes: [
          defineRoute({
            method: "GET",
            path: "/agency/notes",
            operationId: "agencyNotes",
            summary: "How many orders the agency noted",
            auth: "required",
            responses: { 200: { description: "The count." } },
            handle: async (ctx) => {
              requirePrincipal(ctx);
              const { rows } = await (db as SqlStore["database"]).query<{ n: number }>(
                "SELECT count(*)::int AS n FROM agency_notes",
              );
              return { notes: rows[0]?.n };
            },
          }),
        ],
      }),
      orderHooks: {
        orderPlaced: [
          async ({ order }) => {
            await (db as SqlStore["database"]).query("INSERT INTO agency_notes (order_id) VALUES ($1)", [
              order.id,
            ]);
            noted(order.id);
          },
        ],
      },
      start: ({ store }) => {
        db = store.database;
        calls.push("notes start");
      },
      close: () => {
        calls.push("notes close");
      },
    };
    const second: HostPlugin = {
      name: "second",
      start: async () => {
        calls.push("second start");
      },
      close: async () => {
        calls.push("second close");
        throw new Error("already gone");
      },
    };
    const incasso = await createIncasso({ dataDir: await tempDir() }, { ...base, plugins: [notes, second] });
    try {
      expect(calls).toEqual(["notes start", "second start"]);
      const { rows } = await incasso.store.database.query<{ version: number }>(
        "SELECT version FROM incasso_migrations WHERE version >= 1000",
      );
      expect(rows.map((r) => Number(r.version))).toEqual([1000]);
      const { key } = await issueApiKey(incasso.store, { organisation: "Notes BV", mode: "test" });
      const res = await incasso.api.fetch(
        new Request("http://x/api/v1/orders", {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify(EXAMPLE_ORDER_REQUEST),
        }),
      );
      expect(res.status).toBe(201);
      const { id } = (await res.json()) as { id: string };
      expect(await note).toBe(id);
      const count = await incasso.api.fetch(
        new Request("http://x/api/v1/agency/notes", { headers: { authorization: `Bearer ${key}` } }),
      );
      expect(await count.json()).toEqual({ notes: 1 });
      expect(Object.keys(incasso.api.openapi().paths)).toContain("/agency/notes");
    } finally {
      await incasso.stop();
    }
    // Reverse order; a close that throws is logged and the store still closes.
    expect(calls).toEqual(["notes start", "second start", "second close", "notes close"]);
  });

  it("a start that fails closes the plugins started before it and releases the data directory", async () => {
    const calls: string[] = [];
    const dir = await tempDir();
    await expect(
      createIncasso(
        { dataDir: dir },
        {
          ...base,
          plugins: [
            {
              name: "first",
              start: () => void calls.push("first start"),
              close: () => void calls.push("first close"),
            },
            {
              name: "broken",
              start: () => {
                throw new Error("no licence");
              },
              close: () => void calls.push("broken close"),
            },
          ],
        },
      ),
    ).rejects.toThrowError("no licence");
    expect(calls).toEqual(["first start", "first close"]);
    const again = await createIncasso({ dataDir: dir }, base);
    await again.stop();
  });

  it("refuses, before opening anything, a version below 1000 and a range two plugins share", async () => {
    const step = (version: number) => ({ version, name: `v${version}`, statements: ["SELECT 1"] });
    await expect(
      createIncasso(
        { dataDir: await tempDir() },
        { ...base, plugins: [{ name: "low", migrations: [step(60)] }] },
      ),
    ).rejects.toThrowError('createIncasso: plugin "low" has migration version 60; plugins use 1000 and up.');
    await expect(
      createIncasso(
        { dataDir: await tempDir() },
        {
          ...base,
          plugins: [
            { name: "a", migrations: [step(1000)] },
            { name: "b", migrations: [step(1005)] },
          ],
        },
      ),
    ).rejects.toThrowError(
      'createIncasso: plugins "a" and "b" share migration versions 1000–1009; give each plugin a range of its own.',
    );
  });
});
