import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlDatabase } from "./database.js";
import { openPostgresDatabase } from "./postgres-database.js";

// The executor's prepared statements and pipelined BEGIN, on a real server (TEST_DATABASE_URL).
const url = process.env.TEST_DATABASE_URL;

describe.runIf(url !== undefined)("openPostgresDatabase", () => {
  const schema = `executor_${randomBytes(6).toString("hex")}`;
  let db: SqlDatabase;
  beforeAll(async () => {
    db = await openPostgresDatabase({ url: url as string, schema, maxConnections: 1 });
    await db.query("CREATE TABLE t (id int PRIMARY KEY, a text)");
  });
  afterAll(async () => {
    await db?.query(`DROP SCHEMA ${schema} CASCADE`);
    await db?.close();
  });

  it("answers a prepared SELECT * again after a column was added (re-prepared under a new name)", async () => {
    await db.query("INSERT INTO t (id, a) VALUES ($1, $2)", [1, "x"]);
    expect((await db.query("SELECT * FROM t WHERE id = $1", [1])).rows).toEqual([{ id: 1, a: "x" }]);
    await db.query("ALTER TABLE t ADD COLUMN b text");
    expect((await db.query("SELECT * FROM t WHERE id = $1", [1])).rows).toEqual([{ id: 1, a: "x", b: null }]);
  });

  it("runs the first statement of a transaction inside it: a failure later rolls it back", async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO t (id, a) VALUES ($1, $2)", [2, "y"]);
        await tx.query("INSERT INTO t (id, a) VALUES ($1, $2)", [1, "duplicate"]);
      }),
    ).rejects.toMatchObject({ code: "23505" });
    expect((await db.query("SELECT id FROM t WHERE id = $1", [2])).rows).toEqual([]);
  });

  it("commits a one-statement transaction and leaves the connection usable", async () => {
    const rows = await db.transaction(async (tx) => {
      await tx.query("INSERT INTO t (id, a) VALUES ($1, $2)", [3, "z"]);
      return (await tx.query<{ n: string }>("SELECT count(*) AS n FROM t WHERE id = $1", [3])).rows;
    });
    expect(rows).toEqual([{ n: "1" }]);
    expect(
      (await db.query<{ in_tx: boolean }>("SELECT now() = statement_timestamp() AS in_tx")).rows,
    ).toEqual([{ in_tx: true }]);
  });
});
