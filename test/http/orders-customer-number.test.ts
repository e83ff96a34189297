import { randomBytes } from "node:crypto";
import { openCaseSystemStore } from "@incasso/case-system";
import { issueApiKey } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, business, json, orderBody, ordersApi } from "./orders-fixtures.js";

// customer_number is normalised the one way wherever it is compared (decision
// orders-customer-number): in NFC and without leading or trailing spaces when an order is taken (so
// it merges into the open case of the number a person reads), and the same for the filter of
// GET /orders (so the spelling a client sent finds its order). On PGlite, and on PostgreSQL when
// TEST_DATABASE_URL is set (a schema of its own, dropped after).
const url = process.env.TEST_DATABASE_URL;
const targets: { name: string; open: () => Promise<{ store: SqlStore; schema?: string }> }[] = [
  { name: "PGlite", open: async () => ({ store: await openCaseSystemStore() }) },
];
if (url) {
  targets.push({
    name: "PostgreSQL",
    open: async () => {
      const schema = `orders_customer_${randomBytes(6).toString("hex")}`;
      return { store: await openCaseSystemStore({ databaseUrl: url, schema }), schema };
    },
  });
}

// The clock moves one second per order, so the list's order (newest first) is fixed.
let seconds = 0;
const now = () => new Date(Date.UTC(2026, 10, 21, 10, 0, 0) + seconds * 1000);

describe.each(targets)("customer_number on $name", (target) => {
  let store: SqlStore;
  let schema: string | undefined;
  let api: ReturnType<typeof ordersApi>["api"];
  let key: string;
  beforeAll(async () => {
    ({ store, schema } = await target.open());
    api = ordersApi(store, { now }).api;
    key = (
      await issueApiKey(store, {
        organisation: "Klantnummer BV",
        mode: "live",
        visibility: "organisation",
        perMinute: 1000,
        perDay: 10_000,
      })
    ).key;
  });
  afterAll(async () => {
    if (schema) await store.database.query(`DROP SCHEMA ${schema} CASCADE`);
    await store.close();
  });

  const submit = async (reference: string, customerNumber: string) => {
    seconds += 1;
    const res = await api.fetch(
      new Request(
        "http://x/api/v1/orders",
        json(key, orderBody({ reference, debtors: [business(customerNumber)] })),
      ),
    );
    expect(res.status).toBe(201);
    return (await res.json()) as {
      id: string;
      case: { case_number: string | null; new: boolean };
      debtors: { customer_number: string | null }[];
      warnings: { code: string }[];
    };
  };
  const found = async (filter: string) => {
    const res = await api.fetch(
      new Request(`http://x/api/v1/orders?customer_number=${encodeURIComponent(filter)}`, bearer(key)),
    );
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { id: string }[] }).data.map((o) => o.id);
  };

  it("the decomposed (NFD) spelling the client sent finds its order, as the composed one does", async () => {
    const decomposed = "Cafe\u0301-7";
    const order = await submit("CN-NFD", decomposed);
    expect(order.debtors[0]?.customer_number).toBe("Caf\u00e9-7");
    expect(await found(decomposed)).toEqual([order.id]);
    expect(await found("Caf\u00e9-7")).toEqual([order.id]);
  });

  it('" C-1 " and "C-1" are one customer number: one case, and the filter with or without spaces finds both', async () => {
    const padded = await submit("CN-PAD", " C-1 ");
    expect(padded.case.new).toBe(true);
    expect(padded.debtors[0]?.customer_number).toBe("C-1");
    const bare = await submit("CN-BARE", "C-1");
    expect(bare.case).toEqual({ case_number: padded.case.case_number, new: false });
    expect(bare.warnings.map((w) => w.code)).toEqual(["attached_to_existing_case"]);
    for (const filter of ["C-1", " C-1 ", "  C-1"]) expect(await found(filter)).toEqual([bare.id, padded.id]);
    // A number with other characters is another number.
    expect(await found("C-10")).toEqual([]);
  });
});
