import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type SqlStore } from "../index.js";
import { incrementAllSql, rateLimitRepository } from "./rate-limits.js";

const T0 = new Date("2026-11-21T10:00:00.000Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

describe("incrementAllSql", () => {
  it("chains one upsert per window, each gated by the limit of the one before", () => {
    const sql = incrementAllSql(2, true);
    expect(sql).toContain("set_config('synchronous_commit', 'off', true)");
    expect(sql).toContain("SELECT $1, $2, 1, $3 FROM s ON CONFLICT");
    expect(sql).toContain("SELECT $5, $6, 1, $7 FROM w0 WHERE w0.count <= $4 ON CONFLICT");
    expect(sql).toMatch(/SELECT \(SELECT count FROM w0\) AS c0, \(SELECT count FROM w1\) AS c1$/);
  });

  it("leaves the commit setting alone when asked to", () => {
    expect(incrementAllSql(1, false)).not.toContain("synchronous_commit");
  });
});

function describeCommitSetting(
  name: string,
  open: () => Promise<SqlStore>,
  drop?: (s: SqlStore) => Promise<void>,
) {
  describe(`rate-limit counters and the commit setting on ${name}`, () => {
    let store: SqlStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      if (drop) await drop(store);
      await store.close();
    });

    it("inside a caller's transaction the setting stays as it was, so the caller's writes stay durable", async () => {
      const setting = await store.database.transaction(async (tx) => {
        const counts = await rateLimitRepository(tx).incrementAll([
          { bucket: "tx:minute", windowStart: T0, expiresAt: at(60), limit: 5 },
          { bucket: "tx:day", windowStart: T0, expiresAt: at(86_400), limit: 5 },
        ]);
        expect(counts).toEqual([1, 1]);
        const { rows } = await tx.query<{ s: string }>("SELECT current_setting('synchronous_commit') AS s");
        return rows[0]?.s;
      });
      expect(setting).toBe("on");
    });

    it("on the database the setting ends with the counter's own statement", async () => {
      expect(await store.rateLimits.increment("own:minute", T0, at(60))).toBe(1);
      const { rows } = await store.database.query<{ s: string }>(
        "SELECT current_setting('synchronous_commit') AS s",
      );
      expect(rows[0]?.s).toBe("on");
    });
  });
}

describeCommitSetting("PGlite", () => openStore());
const url = process.env.TEST_DATABASE_URL;
if (url) {
  const schema = `rate_limits_${randomBytes(6).toString("hex")}`;
  describeCommitSetting(
    "PostgreSQL",
    () => openStore({ databaseUrl: url, schema, maxConnections: 1 }),
    async (s) => {
      await s.database.query(`DROP SCHEMA ${schema} CASCADE`);
    },
  );
}
