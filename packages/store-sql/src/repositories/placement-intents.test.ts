import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type SqlStore } from "../index.js";

// The placement intents (decision orders-engine-placement-intents): an ended intent cannot be
// claimed and a claimed one cannot be ended, so a placement is never withdrawn under a stored
// order, nor an order stored over a withdrawn placement. On PGlite, and on PostgreSQL when
// TEST_DATABASE_URL is set (a schema of its own, dropped after).
const T0 = new Date("2026-11-28T10:00:00.000Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const org = "org_0123456789abcdef";

const url = process.env.TEST_DATABASE_URL;
const targets: { name: string; open: () => Promise<{ store: SqlStore; schema?: string }> }[] = [
  { name: "PGlite", open: async () => ({ store: await openStore() }) },
];
if (url) {
  targets.push({
    name: "PostgreSQL",
    open: async () => {
      const schema = `placement_intents_${randomBytes(6).toString("hex")}`;
      return { store: await openStore({ databaseUrl: url, schema }), schema };
    },
  });
}

describe.each(targets)("placement intents on $name", (target) => {
  let store: SqlStore;
  let schema: string | undefined;
  beforeAll(async () => {
    ({ store, schema } = await target.open());
  });
  afterAll(async () => {
    if (schema) await store.database.query(`DROP SCHEMA ${schema} CASCADE`);
    await store.close();
  });
  const intents = () => store.placementIntents;

  it("an ended intent cannot be claimed, and ends once", async () => {
    expect(await intents().record({ orderId: "ord_a", organisationId: org, createdAt: at(0) })).toBe(true);
    expect(await store.transaction((tx) => tx.placementIntents.end("ord_a"))).toBe(true);
    expect(await intents().end("ord_a")).toBe(false);
    expect(await intents().claim("ord_a", at(1))).toBeUndefined();
    expect(await intents().claimStale(at(60), at(60), 10)).toEqual([]);
  });

  it("a claimed intent cannot be ended nor recorded again until it is removed", async () => {
    await intents().record({ orderId: "ord_b", organisationId: org, createdAt: at(0) });
    expect(await intents().claim("ord_b", at(1))).toEqual({
      orderId: "ord_b",
      organisationId: org,
      createdAt: at(0),
    });
    expect(await intents().claim("ord_b", at(1))).toBeUndefined();
    expect(await intents().end("ord_b")).toBe(false);
    expect(await intents().record({ orderId: "ord_b", organisationId: org, createdAt: at(2) })).toBe(false);
    await intents().remove("ord_b");
    expect(await intents().record({ orderId: "ord_b", organisationId: org, createdAt: at(3) })).toBe(true);
    expect(await intents().end("ord_b")).toBe(true);
  });

  it("claimStale takes intents recorded before the cut-off, oldest first, and claims left standing longer than it", async () => {
    await intents().record({ orderId: "ord_c2", organisationId: org, createdAt: at(2) });
    await intents().record({ orderId: "ord_c1", organisationId: org, createdAt: at(1) });
    await intents().record({ orderId: "ord_c9", organisationId: org, createdAt: at(9) });
    // A repeat renews the time: the retry gets the whole grace period.
    await intents().record({ orderId: "ord_c2", organisationId: org, createdAt: at(8) });
    const first = await intents().claimStale(at(5), at(10), 10);
    expect(first.map((i) => i.orderId)).toEqual(["ord_c1"]);
    // The renewed and the new one once the cut-off passes them; ord_c1, claimed at minute 10 and
    // not removed (its reconciler stopped), is taken again once its claim is older than the cut-off.
    expect((await intents().claimStale(at(10), at(11), 10)).map((i) => i.orderId)).toEqual([
      "ord_c2",
      "ord_c9",
    ]);
    expect((await intents().claimStale(at(10.5), at(12), 10)).map((i) => i.orderId)).toEqual(["ord_c1"]);
    for (const id of ["ord_c1", "ord_c2", "ord_c9"]) await intents().remove(id);
    const { rows } = await store.database.query<{ n: number | string }>(
      "SELECT count(*) AS n FROM placement_intents",
    );
    expect(Number(rows[0]?.n)).toBe(0);
  });
});
