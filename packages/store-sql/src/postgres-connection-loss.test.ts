import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlDatabase } from "./database.js";
import { openPostgresDatabase } from "./postgres-database.js";

// A connection lost while the pool has lent it out (decision store-unavailable-503), on a real
// server (TEST_DATABASE_URL): the backend is ended from another connection, as a restart or an
// operator would. The pool must neither end the process (an unheard "error" on a lent client) nor
// answer anything but StoreUnavailableError; afterwards it serves again by itself.
const url = process.env.TEST_DATABASE_URL;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.runIf(url !== undefined)("a PostgreSQL connection lost while in use", () => {
  const schema = `connloss_${randomBytes(6).toString("hex")}`;
  let db: SqlDatabase;
  beforeAll(async () => {
    db = await openPostgresDatabase({ url: url as string, schema, maxConnections: 2 });
  });
  afterAll(async () => {
    await db?.query(`DROP SCHEMA ${schema} CASCADE`);
    await db?.close();
  });

  it("a transaction whose backend is terminated fails with store_unavailable; the pool serves again", async () => {
    const failed = db.transaction(async (tx) => {
      const { rows } = await tx.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      await db.query("SELECT pg_terminate_backend($1)", [rows[0]?.pid]);
      // The client learns of it while idle in the transaction: its "error" event comes now.
      await sleep(300);
      await tx.query("SELECT 1");
    });
    await expect(failed).rejects.toMatchObject({ code: "store_unavailable", retryAfterSeconds: 5 });
    expect((await db.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });

  it("a batch whose backend is terminated fails with store_unavailable", async () => {
    // Both connections of the pool: one for the batch, the other ends it while it sleeps.
    const batch = db.batch([{ text: "SELECT pg_sleep(1)" }, { text: "SELECT 1 AS one" }]);
    // The expectation holds the batch from the start: its rejection may come while the terminating
    // query is still awaited, and must not count as unhandled meanwhile.
    const refused = expect(batch).rejects.toMatchObject({ code: "store_unavailable" });
    await sleep(300);
    await db.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'SELECT pg_sleep(1)%' AND pid <> pg_backend_pid()",
    );
    await refused;
    expect((await db.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });

  it("a pool already closed (a stop in progress) fails with store_unavailable, not a plain error", async () => {
    const closed = await openPostgresDatabase({ url: url as string });
    await closed.close();
    await expect(closed.query("SELECT 1")).rejects.toMatchObject({ code: "store_unavailable" });
  });
});
