import { randomBytes } from "node:crypto";
import { CuttableProxy } from "@incasso/test-utils";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SqlDatabase } from "./database.js";
import { openStore } from "./open-store.js";
import { openPostgresDatabase } from "./postgres-database.js";

// A database that stops answering (decision store-timeouts-and-keepalive), on a real server
// (TEST_DATABASE_URL) reached through a loopback proxy that keeps the connections open but
// forwards nothing: a statement fails with store_unavailable once the query time-out has passed
// instead of waiting as long as the stall lasts, its connection is closed rather than put back,
// and once the network is healed the pool answers again at once.
const url = process.env.TEST_DATABASE_URL;
const QUERY_TIMEOUT_MS = 1000;
/** What a loaded machine may add to a time-out before the failure is seen. */
const MARGIN_MS = 3000;

/** How long `promise` took to settle, and its rejection (undefined when it was fulfilled). */
async function timed(promise: Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const started = Date.now();
  try {
    await promise;
    return { ms: Date.now() - started, error: undefined };
  } catch (error) {
    return { ms: Date.now() - started, error };
  }
}

describe.runIf(url !== undefined)(
  "a PostgreSQL server that stops answering (needs TEST_DATABASE_URL)",
  () => {
    const schema = `stall_${randomBytes(6).toString("hex")}`;
    let proxy: CuttableProxy;
    let proxied: string;
    let db: SqlDatabase;
    let direct: SqlDatabase;

    beforeAll(async () => {
      const target = new URL(url as string);
      proxy = new CuttableProxy({ host: target.hostname, port: Number(target.port || 5432) });
      const port = await proxy.listen();
      target.hostname = "127.0.0.1";
      target.port = String(port);
      proxied = target.href;
      direct = await openPostgresDatabase({ url: url as string, schema });
      db = await openPostgresDatabase({
        url: proxied,
        schema,
        maxConnections: 2,
        queryTimeoutMs: QUERY_TIMEOUT_MS,
        connectionTimeoutMs: QUERY_TIMEOUT_MS,
      });
    });
    afterEach(() => proxy.heal());
    afterAll(async () => {
      await db?.close();
      await proxy?.close();
      await direct?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await direct?.close();
    });

    it("a statement sent into a stalled network fails with store_unavailable within the time-out; the pool then serves again", async () => {
      expect((await db.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
      proxy.blackHole();
      const stalled = await Promise.all([
        timed(db.query("SELECT 2 AS two")),
        timed(db.transaction((tx) => tx.query("SELECT 3 AS three"))),
        timed(db.batch([{ text: "SELECT 4 AS four" }])),
      ]);
      for (const { ms, error } of stalled) {
        expect(error).toMatchObject({ code: "store_unavailable", retryAfterSeconds: 5 });
        expect(ms).toBeLessThan(QUERY_TIMEOUT_MS * 2 + MARGIN_MS);
      }
      expect(proxy.dropped).toBeGreaterThan(0);
      proxy.heal();
      // The connections that timed out were closed: the answers owed on them can never be read as
      // the answer to a later statement, and fresh connections serve at once.
      expect((await db.query<{ five: number }>("SELECT 5 AS five")).rows).toEqual([{ five: 5 }]);
      expect(
        await db.transaction(
          async (tx) => (await tx.query<{ six: number }>("SELECT $1::int AS six", [6])).rows,
        ),
      ).toEqual([{ six: 6 }]);
    });

    it("a connection attempt into a stalled network fails within the connect time-out", async () => {
      proxy.blackHole();
      const { ms, error } = await timed(
        openPostgresDatabase({ url: proxied, connectionTimeoutMs: QUERY_TIMEOUT_MS }),
      );
      expect(String(error)).toContain("Connection terminated due to connection timeout");
      expect(ms).toBeLessThan(QUERY_TIMEOUT_MS + MARGIN_MS);
    });

    it("statementTimeoutMs is the session's statement_timeout, sent at startup; a statement past it is store_unavailable", async () => {
      const bounded = await openPostgresDatabase({ url: url as string, schema, statementTimeoutMs: 1500 });
      try {
        const { rows } = await bounded.query<{ statement_timeout: string }>("SHOW statement_timeout");
        expect(rows).toEqual([{ statement_timeout: "1500ms" }]);
        await expect(bounded.query("SELECT pg_sleep(5)")).rejects.toMatchObject({
          code: "store_unavailable",
          cause: { code: "57014" },
        });
        // A statement cancelled by the server leaves its connection usable.
        expect((await bounded.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
      } finally {
        await bounded.close();
      }
    });

    it("the migrations are not bound by the time-outs of the requests", async () => {
      const own = `${schema}_m`;
      // 1 ms would cancel most migration steps; they run on a connection without it.
      const store = await openStore({ databaseUrl: url as string, schema: own, statementTimeoutMs: 1 });
      try {
        const { rows } = await direct.query<{ n: string }>(
          `SELECT count(*) AS n FROM ${own}.incasso_migrations`,
        );
        expect(Number(rows[0]?.n)).toBeGreaterThan(0);
      } finally {
        await store.close();
        await direct.query(`DROP SCHEMA IF EXISTS ${own} CASCADE`);
      }
    });
  },
);
