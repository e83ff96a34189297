import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Executor, SqlDatabase } from "../database.js";
import { openStore, type SqlStore } from "../index.js";
import { idempotencyRepository } from "./idempotency.js";

const T0 = new Date("2026-11-21T10:00:00.000Z");
const claimInput = (key: string, token: string) => ({
  scope: "org_commit",
  key,
  fingerprint: "f1",
  token,
  now: T0,
  leaseSeconds: 30,
  retentionSeconds: 86_400,
});
const response = { status: 201, headers: { "content-type": "application/json" }, body: '{"id":"o1"}' };

/** Records every statement sent through an executor, keeping its shape (with or without `transaction`). */
function recording(db: Executor, seen: string[]): Executor {
  const query: Executor["query"] = (text, params) => {
    seen.push(text);
    return db.query(text, params);
  };
  return "transaction" in db ? ({ ...(db as SqlDatabase), query } as SqlDatabase) : { query };
}

function describeCommitSetting(
  name: string,
  open: () => Promise<SqlStore>,
  drop?: (s: SqlStore) => Promise<void>,
) {
  describe(`idempotency records and the commit setting on ${name}`, () => {
    let store: SqlStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      if (drop) await drop(store);
      await store.close();
    });

    it("on the database the claim and the completion commit without waiting for the flush, and the setting ends with each", async () => {
      const seen: string[] = [];
      const repo = idempotencyRepository(recording(store.database, seen));
      expect(await repo.claim(claimInput("k-db", "t1"))).toEqual({ outcome: "claimed", token: "t1" });
      expect(await repo.complete({ scope: "org_commit", key: "k-db", token: "t1", response, now: T0 })).toBe(
        true,
      );
      expect(seen).toHaveLength(2);
      for (const text of seen) expect(text).toContain("set_config('synchronous_commit', 'off', true)");
      const { rows } = await store.database.query<{ s: string }>(
        "SELECT current_setting('synchronous_commit') AS s",
      );
      expect(rows[0]?.s).toBe("on");
      expect(await repo.claim(claimInput("k-db", "t2"))).toEqual({
        outcome: "completed",
        fingerprint: "f1",
        response,
      });
    });

    it("inside a caller's transaction the setting is left alone, so the caller's writes stay durable", async () => {
      const seen: string[] = [];
      const setting = await store.database.transaction(async (tx) => {
        const repo = idempotencyRepository(recording(tx, seen));
        expect(await repo.claim(claimInput("k-tx", "t3"))).toEqual({ outcome: "claimed", token: "t3" });
        expect(
          await repo.complete({ scope: "org_commit", key: "k-tx", token: "t3", response, now: T0 }),
        ).toBe(true);
        const { rows } = await tx.query<{ s: string }>("SELECT current_setting('synchronous_commit') AS s");
        return rows[0]?.s;
      });
      expect(setting).toBe("on");
      expect(seen).toHaveLength(2);
      for (const text of seen) expect(text).not.toContain("synchronous_commit");
    });
  });
}

describeCommitSetting("PGlite", () => openStore());
const url = process.env.TEST_DATABASE_URL;
if (url) {
  const schema = `idempotency_${randomBytes(6).toString("hex")}`;
  describeCommitSetting(
    "PostgreSQL",
    () => openStore({ databaseUrl: url, schema, maxConnections: 1 }),
    async (s) => {
      await s.database.query(`DROP SCHEMA ${schema} CASCADE`);
    },
  );
}
