import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlDatabase } from "./database.js";
import { openPgliteDatabase } from "./pglite-database.js";
import { openPostgresDatabase } from "./postgres-database.js";

// SqlDatabase.batch: statements in order as one transaction (on PostgreSQL BEGIN, the statements
// and COMMIT in one write). On PGlite, and on PostgreSQL whenever TEST_DATABASE_URL is set (in a
// schema of its own, one connection, so a connection left in a bad state would show).
const url = process.env.TEST_DATABASE_URL;
const schema = `batch_${randomBytes(6).toString("hex")}`;
const targets: { name: string; open: () => Promise<SqlDatabase> }[] = [
  { name: "PGlite", open: () => openPgliteDatabase() },
];
if (url) {
  targets.push({
    name: "PostgreSQL",
    open: () => openPostgresDatabase({ url, schema, maxConnections: 1 }),
  });
}

describe.each(targets)("SqlDatabase.batch on $name", (target) => {
  let db: SqlDatabase;
  beforeAll(async () => {
    db = await target.open();
    await db.query("CREATE TABLE b (id int PRIMARY KEY, a text)");
  });
  afterAll(async () => {
    if (db?.engine === "postgres") await db.query(`DROP SCHEMA ${schema} CASCADE`);
    await db?.close();
  });

  it("runs the statements in order in one transaction and answers each", async () => {
    const xact = { text: "SELECT pg_current_xact_id()::text AS xact" };
    const results = await db.batch([
      { text: "INSERT INTO b (id, a) VALUES ($1, $2)", params: [1, "x"] },
      { text: "UPDATE b SET a = $2 WHERE id = $1 RETURNING a", params: [1, "y"] },
      xact,
      xact,
    ]);
    expect(results.slice(0, 2)).toEqual([
      { rows: [], rowCount: 1 },
      { rows: [{ a: "y" }], rowCount: 1 },
    ]);
    // One transaction: the same transaction id for every statement.
    expect(results[2]?.rows).toEqual(results[3]?.rows);
    expect((await db.query("SELECT a FROM b WHERE id = $1", [1])).rows).toEqual([{ a: "y" }]);
  });

  it("keeps nothing when a statement fails, throws that statement's error and stays usable", async () => {
    await expect(
      db.batch([
        { text: "INSERT INTO b (id, a) VALUES ($1, $2)", params: [2, "kept?"] },
        { text: "INSERT INTO b (id, a) VALUES ($1, $2)", params: [1, "duplicate"] },
        { text: "INSERT INTO b (id, a) VALUES ($1, $2)", params: [3, "after"] },
      ]),
    ).rejects.toMatchObject({ code: "23505" });
    expect((await db.query("SELECT id FROM b ORDER BY id")).rows).toEqual([{ id: 1 }]);
    // The one connection is back in the pool, outside the failed transaction.
    await db.batch([{ text: "INSERT INTO b (id, a) VALUES ($1, $2)", params: [4, "next"] }]);
    await db.query("DELETE FROM b WHERE id = $1", [4]);
    expect((await db.query("SELECT id FROM b ORDER BY id")).rows).toEqual([{ id: 1 }]);
  });

  it("runs again, prepared anew, when a prepared statement's result columns changed", async () => {
    const read = { text: "SELECT * FROM b WHERE id = $1", params: [1] };
    expect((await db.batch([read]))[0]?.rows).toEqual([{ id: 1, a: "y" }]);
    await db.query("ALTER TABLE b ADD COLUMN c text");
    expect((await db.batch([read]))[0]?.rows).toEqual([{ id: 1, a: "y", c: null }]);
  });
});

describe.runIf(url !== undefined)("SqlDatabase.batch on PostgreSQL: a lock, then a read", () => {
  const lockSchema = `batch_lock_${randomBytes(6).toString("hex")}`;
  // A key of this run only, so a parallel run cannot hold it.
  const key = [0x62617463, randomBytes(4).readInt32BE()];
  let a: SqlDatabase;
  let b: SqlDatabase;
  let watcher: SqlDatabase;
  beforeAll(async () => {
    a = await openPostgresDatabase({ url: url as string, schema: lockSchema, maxConnections: 1 });
    b = await openPostgresDatabase({ url: url as string, schema: lockSchema, maxConnections: 1 });
    watcher = await openPostgresDatabase({ url: url as string, schema: lockSchema, maxConnections: 1 });
    await a.query("CREATE TABLE r (id int PRIMARY KEY)");
  });
  afterAll(async () => {
    await a?.query(`DROP SCHEMA ${lockSchema} CASCADE`);
    await a?.close();
    await b?.close();
    await watcher?.close();
  });

  /** Resolves once a backend waits for the advisory lock `key`. */
  async function someoneWaits(): Promise<void> {
    for (;;) {
      const { rows } = await watcher.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = $1::int::oid AND objid = $2::int::oid",
        key,
      );
      if (rows[0]?.n === 1) return;
    }
  }

  it("reads what the lock holder committed: the read statement takes its snapshot after the lock", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked: () => void = () => undefined;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = a.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock($1, $2)", key);
      locked();
      await held;
      await tx.query("INSERT INTO r (id) VALUES ($1)", [1]);
    });
    await isLocked;
    const reader = b.batch([
      { text: "SELECT pg_advisory_xact_lock($1, $2)", params: key },
      { text: "SELECT count(*)::int AS n FROM r WHERE id > $1", params: [0] },
    ]);
    // The reader's batch is on the server, waiting for the lock; the holder's insert commits
    // before the reader gets it, after the reader's transaction began.
    await someoneWaits();
    release();
    await holder;
    expect((await reader)[1]?.rows).toEqual([{ n: 1 }]);
  });
});
