import { createHash, randomBytes } from "node:crypto";
import {
  authenticateApiKey,
  type CoreError,
  createCreditor,
  type IncassoStore,
  isCoreError,
  issueApiKey,
  listCreditors,
  listUdfFields,
  newId,
  type OrderActionRecord,
  type OrderListQuery,
  type OrderRecord,
  type Principal,
  removeUdfField,
  revokeApiKey,
  setUdfField,
} from "@incasso/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * How a back-end is opened for the conformance suite, and (optionally) how to look at its raw rows.
 *
 * @example
 * const target: StoreTarget = { name: "PGlite", open: () => openStore() };
 */
export interface StoreTarget {
  name: string;
  open(): Promise<IncassoStore>;
  /** Runs raw SQL on the store, to prove what is (not) stored. */
  rawQuery?(store: IncassoStore, sql: string): Promise<Record<string, unknown>[]>;
  /** Removes what the suite left behind (a schema, a directory). */
  cleanup?(store: IncassoStore): Promise<void>;
}

const T0 = new Date("2026-11-21T10:00:00.000Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/** An order with every field set; `over` changes what a test is about. */
function orderRecord(
  over: Partial<OrderRecord> & Pick<OrderRecord, "organisationId" | "keyId">,
): OrderRecord {
  return {
    id: newId("ord"),
    mode: "live",
    type: "incasso",
    reference: "REF-1",
    caseNumber: "2026-000001",
    caseNew: true,
    creditorId: null,
    debtors: [{ name: "Voorbeeld B.V.", customer_number: "K-1" }],
    invoiceCount: 1,
    totalAmountCents: 125_000,
    metadata: {},
    udfFields: {},
    warnings: [],
    createdAt: T0,
    ...over,
  };
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return isCoreError(error) ? error.code : `not a CoreError: ${String(error)}`;
  }
}

/**
 * The store conformance suite: every rule of the storage ports, run against one back-end. Wire it
 * up in one line per back-end (store-sql runs it on PGlite always and on PostgreSQL when
 * `TEST_DATABASE_URL` is set).
 *
 * @example
 * describeStoreConformance({ name: "PGlite", open: () => openStore() });
 */
export function describeStoreConformance(target: StoreTarget): void {
  describe(`store conformance on ${target.name}`, () => {
    let store: IncassoStore;
    beforeAll(async () => {
      store = await target.open();
    });
    afterAll(async () => {
      await target.cleanup?.(store);
      await store.close();
    });

    describe("organisations and API keys", () => {
      it("creates an organisation on first use and reuses it", async () => {
        const a = await issueApiKey(store, { organisation: "Org One", mode: "test", now: T0 });
        const b = await issueApiKey(store, { organisation: "Org One", mode: "live", now: T0 });
        expect(a.organisationCreated).toBe(true);
        expect(b.organisationCreated).toBe(false);
        expect(b.record.organisationId).toBe(a.record.organisationId);
        expect(a.record).toMatchObject({
          organisationName: "Org One",
          creditorName: "Org One",
          mode: "test",
          visibility: "own",
          creditorManagement: false,
          perMinute: 30,
          perDay: 500,
          revokedAt: null,
        });
        expect(a.record.createdAt.toISOString()).toBe(T0.toISOString());
        expect(a.key).toMatch(/^svc_test_[0-9A-Za-z]{32}$/);
        expect(b.key).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
        expect(a.record.hint).toBe(`svc_test_…${a.key.slice(-4)}`);
      });

      it("refuses a different creditor name for an existing organisation", async () => {
        await issueApiKey(store, { organisation: "Org Two", creditorName: "Two Creditor BV", mode: "test" });
        expect(
          await codeOf(issueApiKey(store, { organisation: "Org Two", creditorName: "Other", mode: "test" })),
        ).toBe("organisation_conflict");
        const same = await issueApiKey(store, {
          organisation: "Org Two",
          creditorName: "Two Creditor BV",
          mode: "live",
        });
        expect(same.record.creditorName).toBe("Two Creditor BV");
      });

      it("stores settings as given and validates limits", async () => {
        const k = await issueApiKey(store, {
          organisation: "Org Three",
          mode: "live",
          visibility: "organisation",
          creditorManagement: true,
          perMinute: 5,
          perDay: 7,
        });
        expect(k.record).toMatchObject({
          visibility: "organisation",
          creditorManagement: true,
          perMinute: 5,
          perDay: 7,
        });
        expect(
          await codeOf(issueApiKey(store, { organisation: "Org Three", mode: "live", perMinute: 0 })),
        ).toBe("invalid_key_settings");
        expect(await codeOf(issueApiKey(store, { organisation: "  ", mode: "live" }))).toBe(
          "invalid_key_settings",
        );
      });

      it("keeps only the hash: the key appears nowhere in the database", async () => {
        const { key } = await issueApiKey(store, { organisation: "Org Hash", mode: "test" });
        if (!target.rawQuery) return;
        const rows = await target.rawQuery(store, "SELECT * FROM api_keys");
        const dump = JSON.stringify(rows);
        expect(dump).not.toContain(key);
        expect(dump).not.toContain(key.slice(9, 30));
        expect(dump).toContain(createHashHex(key));
      });

      it("authenticates a valid key and refuses malformed, unknown and revoked ones", async () => {
        const { key, record } = await issueApiKey(store, {
          organisation: "Org Auth",
          creditorName: "Auth Creditor",
          mode: "live",
        });
        const principal = await authenticateApiKey(store, key);
        expect(principal).toEqual({
          keyId: record.id,
          organisationId: record.organisationId,
          organisationName: "Org Auth",
          creditorName: "Auth Creditor",
          mode: "live",
          visibility: "own",
          creditorManagement: false,
          rateLimits: { perMinute: 30, perDay: 500 },
        } satisfies Principal);
        expect(await authenticateApiKey(store, `${key}x`)).toBeUndefined();
        expect(await authenticateApiKey(store, `svc_live_${"A".repeat(32)}`)).toBeUndefined();
        const revoked = await revokeApiKey(store, record.id, at(60));
        expect(revoked.revokedAt?.toISOString()).toBe(at(60).toISOString());
        expect(await authenticateApiKey(store, key)).toBeUndefined();
        // Revoking again keeps the first moment.
        expect((await revokeApiKey(store, record.id, at(120))).revokedAt?.toISOString()).toBe(
          at(60).toISOString(),
        );
        expect(await codeOf(revokeApiKey(store, "key_0000000000000000"))).toBe("key_not_found");
      });

      it("lists keys oldest first, optionally per organisation", async () => {
        const { record } = await issueApiKey(store, { organisation: "Org List", mode: "test", now: at(1) });
        const all = await store.apiKeys.list();
        expect(all.length).toBe(await store.apiKeys.count());
        expect(await store.apiKeys.list({ organisationId: record.organisationId })).toEqual([record]);
      });

      it("makes one organisation of concurrent first uses", async () => {
        const results = await Promise.all(
          Array.from({ length: 8 }, () => issueApiKey(store, { organisation: "Org Race", mode: "test" })),
        );
        expect(new Set(results.map((r) => r.record.organisationId)).size).toBe(1);
        expect(results.filter((r) => r.organisationCreated).length).toBe(1);
      });
    });

    describe("creditors", () => {
      let principal: Principal;
      let other: Principal;
      beforeAll(async () => {
        const a = await issueApiKey(store, {
          organisation: "Cred Org",
          mode: "test",
          creditorManagement: true,
        });
        const b = await issueApiKey(store, {
          organisation: "Cred Other",
          mode: "test",
          creditorManagement: true,
        });
        principal = (await authenticateApiKey(store, a.key)) as Principal;
        other = (await authenticateApiKey(store, b.key)) as Principal;
      });

      it("creates, refuses a duplicate reference, and allows it in another organisation", async () => {
        const c = await createCreditor(store, principal, { reference: "R-1", name: "Alpha BV" }, { now: T0 });
        expect(c).toEqual({
          id: expect.stringMatching(/^cred_[0-9a-f]{16}$/),
          object: "creditor",
          reference: "R-1",
          name: "Alpha BV",
          created_at: "2026-11-21T10:00:00.000Z",
        });
        expect(await codeOf(createCreditor(store, principal, { reference: "R-1", name: "Other" }))).toBe(
          "creditor_exists",
        );
        const elsewhere = await createCreditor(store, other, { reference: "R-1", name: "Alpha elsewhere" });
        expect(elsewhere.reference).toBe("R-1");
        expect(await store.creditors.findByReference(principal.organisationId, "R-1")).toMatchObject({
          id: c.id,
          name: "Alpha BV",
        });
        expect(await store.creditors.findById(other.organisationId, c.id)).toBeUndefined();
      });

      it("lets exactly one of concurrent duplicates win", async () => {
        const outcomes = await Promise.allSettled(
          Array.from({ length: 6 }, () =>
            createCreditor(store, principal, { reference: "RACE", name: "R" }, { now: at(50) }),
          ),
        );
        expect(outcomes.filter((o) => o.status === "fulfilled").length).toBe(1);
        for (const o of outcomes) {
          if (o.status === "rejected") expect((o.reason as CoreError).code).toBe("creditor_exists");
        }
      });

      it("pages oldest first with a cursor and never shows another organisation's creditors", async () => {
        for (let i = 0; i < 5; i++) {
          await createCreditor(
            store,
            principal,
            { reference: `P-${i}`, name: `Page ${i}` },
            { now: at(100 + i) },
          );
        }
        const seen: string[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < 10; page++) {
          const list = await listCreditors(store, principal, { limit: 2, ...(cursor ? { cursor } : {}) });
          seen.push(...list.data.map((c) => c.reference));
          if (!list.has_more) {
            expect(list.next_cursor).toBeNull();
            break;
          }
          cursor = list.next_cursor ?? undefined;
        }
        expect(seen).toEqual(["R-1", "RACE", "P-0", "P-1", "P-2", "P-3", "P-4"]);
        const theirs = await listCreditors(store, other, { limit: 100 });
        expect(theirs.data.map((c) => c.reference)).toEqual(["R-1"]);
        expect(await codeOf(listCreditors(store, principal, { limit: 2, cursor: "bm9wZQ" }))).toBe(
          "invalid_cursor",
        );
      });

      it("refuses both operations without creditor management", async () => {
        const off = await issueApiKey(store, { organisation: "Cred Org", mode: "test" });
        const p = (await authenticateApiKey(store, off.key)) as Principal;
        expect(await codeOf(createCreditor(store, p, { reference: "X", name: "X" }))).toBe(
          "creditor_feature_disabled",
        );
        expect(await codeOf(listCreditors(store, p, { limit: 1 }))).toBe("creditor_feature_disabled");
      });
    });

    describe("idempotency keys", () => {
      const base = { scope: "org_idem", fingerprint: "f1", leaseSeconds: 30, retentionSeconds: 86_400 };
      const response = { status: 201, headers: { "content-type": "application/json" }, body: '{"a":1}' };

      it("claims once, reports in-progress, then replays the completed response", async () => {
        const first = await store.idempotency.claim({ ...base, key: "k1", token: "t1", now: T0 });
        expect(first).toEqual({ outcome: "claimed", token: "t1" });
        const busy = await store.idempotency.claim({ ...base, key: "k1", token: "t2", now: at(5) });
        expect(busy).toEqual({ outcome: "in_progress", fingerprint: "f1", leaseExpiresAt: at(30) });
        expect(
          await store.idempotency.complete({
            scope: "org_idem",
            key: "k1",
            token: "t1",
            response,
            now: at(6),
          }),
        ).toBe(true);
        const replay = await store.idempotency.claim({ ...base, key: "k1", token: "t3", now: at(7) });
        expect(replay).toEqual({ outcome: "completed", fingerprint: "f1", response });
      });

      it("keys are scoped: the same key in another scope is independent", async () => {
        const other = await store.idempotency.claim({
          ...base,
          scope: "org_other",
          key: "k1",
          token: "o1",
          now: T0,
        });
        expect(other.outcome).toBe("claimed");
      });

      it("frees a crashed claim after its lease for the same content only, and the stale owner can no longer complete", async () => {
        await store.idempotency.claim({ ...base, key: "crash", token: "dead", now: T0 });
        expect(
          (await store.idempotency.claim({ ...base, key: "crash", token: "x", now: at(29) })).outcome,
        ).toBe("in_progress");
        // Other content under the key never takes it over within its retention.
        expect(
          await store.idempotency.claim({
            ...base,
            fingerprint: "f2",
            key: "crash",
            token: "z",
            now: at(30),
          }),
        ).toEqual({ outcome: "in_progress", fingerprint: "f1", leaseExpiresAt: at(30) });
        const taken = await store.idempotency.claim({ ...base, key: "crash", token: "new", now: at(30) });
        expect(taken).toEqual({ outcome: "claimed", token: "new" });
        expect(
          await store.idempotency.complete({
            scope: "org_idem",
            key: "crash",
            token: "dead",
            response,
            now: at(31),
          }),
        ).toBe(false);
        expect(
          await store.idempotency.renew({
            scope: "org_idem",
            key: "crash",
            token: "dead",
            leaseExpiresAt: at(90),
          }),
        ).toBe(false);
        expect(
          await store.idempotency.renew({
            scope: "org_idem",
            key: "crash",
            token: "new",
            leaseExpiresAt: at(90),
          }),
        ).toBe(true);
        expect(await store.idempotency.claim({ ...base, key: "crash", token: "y", now: at(80) })).toEqual({
          outcome: "in_progress",
          fingerprint: "f1",
          leaseExpiresAt: at(90),
        });
      });

      it("a released key keeps its content: the same content claims it again at once, other content does not", async () => {
        await store.idempotency.claim({ ...base, key: "rel", token: "r1", now: T0 });
        await store.idempotency.release({ scope: "org_idem", key: "rel", token: "r1" });
        expect(
          await store.idempotency.claim({ ...base, fingerprint: "f2", key: "rel", token: "r2", now: at(1) }),
        ).toEqual({ outcome: "in_progress", fingerprint: "f1", leaseExpiresAt: T0 });
        expect(await store.idempotency.claim({ ...base, key: "rel", token: "r3", now: at(1) })).toEqual({
          outcome: "claimed",
          token: "r3",
        });
        // Past its retention, the key is free for any content.
        await store.idempotency.release({ scope: "org_idem", key: "rel", token: "r3" });
        expect(
          (
            await store.idempotency.claim({
              ...base,
              fingerprint: "f2",
              key: "rel",
              token: "r4",
              now: at(86_400 + 1),
            })
          ).outcome,
        ).toBe("claimed");
      });

      it("keeps a completed response for the retention period, then prunes it", async () => {
        await store.idempotency.claim({ ...base, key: "old", token: "o", now: T0 });
        await store.idempotency.complete({ scope: "org_idem", key: "old", token: "o", response, now: T0 });
        const justBefore = at(86_399);
        expect(
          (await store.idempotency.claim({ ...base, key: "old", token: "p", now: justBefore })).outcome,
        ).toBe("completed");
        expect(await store.idempotency.prune(justBefore)).toBe(0);
        const pruned = await store.idempotency.prune(at(86_400 + 3600));
        expect(pruned).toBeGreaterThanOrEqual(1);
        expect(
          (await store.idempotency.claim({ ...base, key: "old", token: "q", now: at(86_400 + 3600) }))
            .outcome,
        ).toBe("claimed");
      });

      it("of many concurrent claims on one key exactly one wins", async () => {
        const claims = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            store.idempotency.claim({ ...base, key: "race", token: `r${i}`, now: T0 }),
          ),
        );
        expect(claims.filter((c) => c.outcome === "claimed").length).toBe(1);
        expect(claims.filter((c) => c.outcome === "in_progress").length).toBe(11);
      });
    });

    describe("rate-limit counters", () => {
      it("counts hits per bucket and window, concurrently without losing one", async () => {
        const counts = await Promise.all(
          Array.from({ length: 20 }, () => store.rateLimits.increment("b1", T0, at(60))),
        );
        expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
        expect(await store.rateLimits.increment("b1", at(60), at(120))).toBe(1);
        expect(await store.rateLimits.increment("b2", T0, at(60))).toBe(1);
      });

      it("counts several windows in one call, stopping after the first over its limit", async () => {
        const hits = [
          { bucket: "all:minute", windowStart: T0, expiresAt: at(60), limit: 2 },
          { bucket: "all:day", windowStart: T0, expiresAt: at(86_400), limit: 3 },
        ];
        expect(await store.rateLimits.incrementAll(hits)).toEqual([1, 1]);
        expect(await store.rateLimits.incrementAll(hits)).toEqual([2, 2]);
        // Over the minute limit: the day window is not counted.
        expect(await store.rateLimits.incrementAll(hits)).toEqual([3]);
        expect(await store.rateLimits.increment("all:day", T0, at(86_400))).toBe(3);
        // Next minute: counted in both; the day is now over its limit.
        const next = [{ ...hits[0], windowStart: at(60), expiresAt: at(120) }, hits[1]] as typeof hits;
        expect(await store.rateLimits.incrementAll(next)).toEqual([1, 4]);
        expect(await store.rateLimits.incrementAll([])).toEqual([]);
        expect(await store.rateLimits.incrementAll([hits[0] as (typeof hits)[0]])).toEqual([4]);
      });

      it("counts windows of concurrent calls without losing one", async () => {
        const hits = [
          { bucket: "race:minute", windowStart: T0, expiresAt: at(60), limit: 1_000 },
          { bucket: "race:day", windowStart: T0, expiresAt: at(86_400), limit: 1_000 },
        ];
        const results = await Promise.all(
          Array.from({ length: 20 }, () => store.rateLimits.incrementAll(hits)),
        );
        const sorted = (i: number) => results.map((r) => r[i]).sort((a, b) => (a ?? 0) - (b ?? 0));
        const expected = Array.from({ length: 20 }, (_, i) => i + 1);
        expect(sorted(0)).toEqual(expected);
        expect(sorted(1)).toEqual(expected);
      });

      it("prunes windows that have ended", async () => {
        await store.rateLimits.increment("p1", T0, at(60));
        expect(await store.rateLimits.prune(at(59))).toBe(0);
        expect(await store.rateLimits.prune(at(60))).toBeGreaterThanOrEqual(1);
        expect(await store.rateLimits.increment("p1", T0, at(60))).toBe(1);
      });
    });

    describe("custom case fields", () => {
      beforeAll(async () => {
        await issueApiKey(store, { organisation: "Udf Org", mode: "test" });
        await issueApiKey(store, { organisation: "Udf Other", mode: "test" });
      });

      it("sets, changes, lists by name and removes definitions per organisation", async () => {
        expect(await setUdfField(store, { organisation: "Udf Org", name: "z_last", type: "date" })).toEqual({
          name: "z_last",
          type: "date",
        });
        await setUdfField(store, { organisation: "Udf Org", name: "contract_id", type: "number" });
        await setUdfField(store, { organisation: "Udf Org", name: "contract_id", type: "text" });
        await setUdfField(store, { organisation: "Udf Other", name: "flag", type: "boolean" });
        expect(await listUdfFields(store, "Udf Org")).toEqual([
          { name: "contract_id", type: "text" },
          { name: "z_last", type: "date" },
        ]);
        await removeUdfField(store, { organisation: "Udf Org", name: "z_last" });
        expect(await listUdfFields(store, "Udf Org")).toEqual([{ name: "contract_id", type: "text" }]);
        expect(await listUdfFields(store, "Udf Other")).toEqual([{ name: "flag", type: "boolean" }]);
      });

      it("refuses bad names, bad types, unknown organisations and unknown fields", async () => {
        expect(
          await codeOf(setUdfField(store, { organisation: "Udf Org", name: "has space", type: "text" })),
        ).toBe("invalid_udf_field");
        expect(await codeOf(setUdfField(store, { organisation: "Udf Org", name: "n", type: "money" }))).toBe(
          "invalid_udf_field",
        );
        expect(await codeOf(setUdfField(store, { organisation: "Nobody", name: "n", type: "text" }))).toBe(
          "organisation_not_found",
        );
        expect(await codeOf(removeUdfField(store, { organisation: "Udf Org", name: "nope" }))).toBe(
          "udf_field_not_found",
        );
      });
    });

    describe("orders", () => {
      let org: string;
      let key: string;
      let otherOrg: string;
      let otherKey: string;
      beforeAll(async () => {
        const a = await issueApiKey(store, { organisation: "Order Org", mode: "live" });
        const b = await issueApiKey(store, { organisation: "Order Other", mode: "live" });
        [org, key] = [a.record.organisationId, a.record.id];
        [otherOrg, otherKey] = [b.record.organisationId, b.record.id];
      });

      it("stores an order as given, once: a retry writes nothing and returns the stored one", async () => {
        const record = orderRecord({
          organisationId: org,
          keyId: key,
          reference: "Insert",
          caseNew: false,
          creditorId: "cred_00000000000000c1",
          debtors: [
            { name: "Eerste B.V.", customer_number: null },
            { name: "Tweede", customer_number: "K-9" },
          ],
          invoiceCount: 3,
          // Above 2^31: a bigint column must still come back as this number.
          totalAmountCents: 12_345_678_901,
          metadata: { zeta: "1", alpha: "2", mid: "3" },
          udfFields: { z_date: "2026-01-31", contract_id: "C-9", amount: 12.5, flag: true, none: null },
          warnings: [
            { code: "udf_field_unknown", message: 'Maatwerkveld "kleur" is onbekend.', invoice_number: null },
            { code: "wik_letter_incomplete", message: "Één brief mist.", invoice_number: "F-2" },
          ],
          createdAt: new Date("2026-11-21T10:00:00.123Z"),
        });
        expect(await store.orders.insert(record)).toEqual({ order: record, created: true });
        const again = await store.orders.insert({
          ...record,
          reference: "Other",
          totalAmountCents: 1,
          metadata: { alpha: "x" },
          createdAt: at(99),
        });
        expect(again).toEqual({ order: record, created: false });
        for (const found of [again.order, await store.orders.findById(org, record.id)]) {
          expect(found).toEqual(record);
          expect(found?.createdAt.toISOString()).toBe("2026-11-21T10:00:00.123Z");
          expect(typeof found?.totalAmountCents).toBe("number");
          // toEqual ignores key order; responses echo these exactly as sent.
          expect(JSON.stringify(found?.metadata)).toBe('{"zeta":"1","alpha":"2","mid":"3"}');
          expect(JSON.stringify(found?.udfFields)).toBe(JSON.stringify(record.udfFields));
          expect(JSON.stringify(found?.debtors)).toBe(JSON.stringify(record.debtors));
          expect(JSON.stringify(found?.warnings)).toBe(JSON.stringify(record.warnings));
        }
      });

      it("keeps metadata and udf_fields keys named __proto__, constructor and prototype as own keys, in order", async () => {
        // JSON.parse makes `__proto__` an own key, as the API's body parser does; an object literal
        // would set the prototype instead (decision orders-reserved-keys).
        const metadata = JSON.parse('{"constructor":"c","__proto__":"p","prototype":"t"}');
        const udfFields = JSON.parse('{"__proto__":{"polluted":"yes"},"prototype":1,"constructor":null}');
        const { order } = await store.orders.insert(
          orderRecord({ organisationId: org, keyId: key, metadata, udfFields }),
        );
        for (const found of [order, await store.orders.findById(org, order.id)]) {
          expect(JSON.stringify(found?.metadata)).toBe('{"constructor":"c","__proto__":"p","prototype":"t"}');
          expect(JSON.stringify(found?.udfFields)).toBe(
            '{"__proto__":{"polluted":"yes"},"prototype":1,"constructor":null}',
          );
          expect(Object.getPrototypeOf(found?.metadata)).toBe(Object.prototype);
          expect(Object.getPrototypeOf(found?.udfFields)).toBe(Object.prototype);
          expect(Object.hasOwn(found?.udfFields ?? {}, "__proto__")).toBe(true);
          expect((found?.udfFields as Record<string, unknown> | undefined)?.polluted).toBeUndefined();
        }
      });

      it("finds an order only for its own organisation", async () => {
        const { order } = await store.orders.insert(orderRecord({ organisationId: org, keyId: key }));
        expect(await store.orders.findById(org, order.id)).toEqual(order);
        expect(await store.orders.findById(otherOrg, order.id)).toBeUndefined();
        expect(await store.orders.findById(org, newId("ord"))).toBeUndefined();
      });

      it("writes a pending handler run only with a row it inserts; one claim at a time, again once stale", async () => {
        // Decision orders-host-hooks: the run is written by the statement that stores the row.
        const principal: Principal = {
          keyId: key,
          organisationId: org,
          organisationName: "Order Org",
          creditorName: "Order Org",
          mode: "live",
          visibility: "own",
          creditorManagement: false,
          rateLimits: { perMinute: 30, perDay: 500 },
        };
        const since = new Date(Date.now() - 10_000);
        const record = orderRecord({ organisationId: org, keyId: key });
        await store.orders.insert(record, { handlersPending: { principal, since } });
        // A retry that finds the row writes no second run; an order without handlers writes none.
        await store.orders.insert(record, { handlersPending: { principal, since: new Date() } });
        await store.orders.insert(orderRecord({ organisationId: org, keyId: key }));
        const action = await store.orders.addAction(
          {
            id: `act_${randomBytes(8).toString("hex")}`,
            orderId: record.id,
            organisationId: org,
            action: "hold",
            status: "requested",
            reason: null,
            amountCents: null,
            paymentDate: null,
            createdAt: at(1),
          },
          { handlersPending: { principal, since } },
        );
        const before = new Date(since.getTime() + 1);
        const run = (kind: "order" | "action", id: string) => ({
          kind,
          id,
          orderId: record.id,
          organisationId: org,
          principal,
          createdAt: since,
        });
        expect(await store.pendingHandlers.claimStale(before, new Date(), 10, ["action"])).toEqual([
          run("action", action.id),
        ]);
        // Claimed: not claimed again until the claim is older than `before`.
        expect(await store.pendingHandlers.claimStale(before, new Date(), 10, ["action", "order"])).toEqual([
          run("order", record.id),
        ]);
        expect(await store.pendingHandlers.claimStale(before, new Date(), 10, ["action", "order"])).toEqual(
          [],
        );
        const later = new Date(Date.now() + 60_000);
        expect(
          (await store.pendingHandlers.claimStale(later, later, 10, ["action", "order"]))
            .map((r) => r.kind)
            .sort(),
        ).toEqual(["action", "order"]);
        await store.pendingHandlers.remove("order", record.id);
        await store.pendingHandlers.remove("action", action.id);
        expect(await store.pendingHandlers.claimStale(later, later, 10, ["action", "order"])).toEqual([]);
      });

      describe("list", () => {
        // An organisation of its own, so these six orders are all there is to list. Three share a
        // createdAt and differ in the last digit of their id only, so the tie order (id descending:
        // o3, o4, o2) is known and is neither the insertion order nor its reverse.
        const stem = `ord_${randomBytes(8).toString("hex").slice(0, 15)}`;
        let lister: string;
        let key1: string;
        let key2: string;
        let o: Record<"o1" | "o2" | "o3" | "o4" | "o5" | "theirs", OrderRecord>;
        const names = (rows: OrderRecord[]) =>
          rows.map((r) => Object.entries(o).find(([, v]) => v.id === r.id)?.[0] ?? r.id);
        const list = (query: Partial<OrderListQuery> = {}) =>
          store.orders.list({ organisationId: lister, limit: 10, ...query }).then(names);
        const positionAfter = (r: OrderRecord) => ({ createdAt: r.createdAt.toISOString(), id: r.id });

        beforeAll(async () => {
          const k1 = await issueApiKey(store, { organisation: "Order List Org", mode: "live" });
          const k2 = await issueApiKey(store, { organisation: "Order List Org", mode: "live" });
          [lister, key1, key2] = [k1.record.organisationId, k1.record.id, k2.record.id];
          const mine = { organisationId: lister, keyId: key1 };
          const debtor = (customer_number: string | null) => ({ name: "D", customer_number });
          o = {
            o1: orderRecord({ ...mine, reference: "REF-A", caseNumber: "C-101", createdAt: at(10) }),
            o2: orderRecord({
              ...mine,
              id: `${stem}b`,
              type: "pre-incasso",
              reference: "REF-B",
              caseNumber: null,
              debtors: [debtor(null), debtor("K-2")],
              createdAt: at(20),
            }),
            o3: orderRecord({
              ...mine,
              id: `${stem}d`,
              keyId: key2,
              reference: "REF-A",
              caseNumber: "C-102",
              debtors: [debtor("K-3"), debtor("K-1")],
              createdAt: at(20),
            }),
            o4: orderRecord({
              ...mine,
              id: `${stem}c`,
              keyId: key2,
              reference: null,
              caseNumber: "C-101",
              debtors: [debtor("K-2")],
              createdAt: at(20),
            }),
            o5: orderRecord({
              ...mine,
              type: "pre-incasso",
              reference: "REF-C",
              caseNumber: "C-103",
              debtors: [debtor("K-4")],
              createdAt: at(30),
            }),
            // Matches every filter below but belongs to another organisation.
            theirs: orderRecord({
              organisationId: otherOrg,
              keyId: otherKey,
              reference: "REF-A",
              caseNumber: "C-101",
              createdAt: at(25),
            }),
          };
          for (const r of Object.values(o)) await store.orders.insert(r);
        });

        it("lists newest first with ties by id descending, up to limit + 1 rows, and pages strictly older", async () => {
          expect(await list()).toEqual(["o5", "o3", "o4", "o2", "o1"]);
          expect(await list({ limit: 2 })).toEqual(["o5", "o3", "o4"]);
          expect(await list({ limit: 1, after: positionAfter(o.o5) })).toEqual(["o3", "o4"]);
          // Within the tie: strictly older means a smaller id at the same createdAt.
          expect(await list({ limit: 1, after: positionAfter(o.o3) })).toEqual(["o4", "o2"]);
          expect(await list({ after: positionAfter(o.o4) })).toEqual(["o2", "o1"]);
          expect(await list({ after: positionAfter(o.o1) })).toEqual([]);
          expect(await list({ keyId: key2, after: positionAfter(o.o3) })).toEqual(["o4"]);
        });

        it("filters by key, case number, reference, any debtor's customer number and type", async () => {
          expect(await list({ keyId: key1 })).toEqual(["o5", "o2", "o1"]);
          expect(await list({ keyId: key2 })).toEqual(["o3", "o4"]);
          expect(await list({ caseNumber: "C-101" })).toEqual(["o4", "o1"]);
          expect(await list({ reference: "REF-A" })).toEqual(["o3", "o1"]);
          expect(await list({ customerNumber: "K-1" })).toEqual(["o3", "o1"]);
          expect(await list({ customerNumber: "K-2" })).toEqual(["o4", "o2"]);
          expect(await list({ type: "pre-incasso" })).toEqual(["o5", "o2"]);
          expect(await list({ type: "incasso", keyId: key2, customerNumber: "K-2" })).toEqual(["o4"]);
          expect(await list({ reference: "none" })).toEqual([]);
          expect(await list({ organisationId: otherOrg })).toEqual(["theirs"]);
          expect(await list({ organisationId: otherOrg, keyId: key1 })).toEqual([]);
        });
      });

      it("stores control requests as given and lists them newest first, per organisation and order", async () => {
        const mine = { organisationId: org, keyId: key };
        const { order } = await store.orders.insert(orderRecord(mine));
        const { order: second } = await store.orders.insert(orderRecord(mine));
        const act = (over: Partial<OrderActionRecord>): OrderActionRecord => ({
          // `act_` + 16 hex, as core names control requests.
          id: `act_${randomBytes(8).toString("hex")}`,
          orderId: order.id,
          organisationId: org,
          action: "hold",
          status: "requested",
          reason: null,
          amountCents: null,
          paymentDate: null,
          createdAt: at(10),
          ...over,
        });
        // Stored out of time order, so neither the insertion order nor its reverse is newest first.
        const hold = act({ reason: "Klant belt terug" });
        const withdraw = act({ action: "withdraw", reason: "Betaald", createdAt: at(30) });
        const payment = act({
          action: "payments",
          amountCents: 12_500,
          paymentDate: "2026-11-20",
          createdAt: new Date("2026-11-21T10:00:20.456Z"),
        });
        const elsewhere = act({ orderId: second.id, createdAt: at(40) });
        for (const a of [hold, withdraw, payment, elsewhere]) {
          expect(await store.orders.addAction(a)).toEqual(a);
        }
        const listed = await store.orders.listActions(org, order.id);
        expect(listed).toEqual([withdraw, payment, hold]);
        expect(listed[1]?.paymentDate).toBe("2026-11-20");
        expect(listed[1]?.createdAt.toISOString()).toBe("2026-11-21T10:00:20.456Z");
        expect(await store.orders.listActions(org, second.id)).toEqual([elsewhere]);
        expect(await store.orders.listActions(otherOrg, order.id)).toEqual([]);
        expect(await store.orders.listActions(org, newId("ord"))).toEqual([]);
      });
    });

    describe("webhook outbox", () => {
      it("tells when the longest-waiting due event became due, counting claims whose lease ran out", async () => {
        // This suite writes no other events, so the store's outbox holds only these.
        const { organisation } = await store.organisations.ensure({
          id: newId("org"),
          name: `Outbox Due ${randomBytes(4).toString("hex")}`,
          creditorName: "Creditor BV",
          now: T0,
        });
        await store.webhookEndpoints.set({
          organisationId: organisation.id,
          url: "https://client.example/hook",
          secret: "whsec_conformance_secret",
          now: T0,
        });
        expect(await store.outbox.oldestDueAt(at(0))).toBeUndefined();
        const data = {
          order_id: "ord_0123456789abcdef",
          case_number: "2026-000123",
          reference: "INV-42",
          case_event: "case_payments",
        };
        await store.outbox.enqueue({
          organisationId: organisation.id,
          type: "payment.received",
          data,
          now: at(10),
        });
        await store.outbox.enqueue({
          organisationId: organisation.id,
          type: "payment.received",
          data,
          now: at(20),
        });
        // Not due yet at 5 s; due since 10 s at 30 s.
        expect(await store.outbox.oldestDueAt(at(5))).toBeUndefined();
        expect((await store.outbox.oldestDueAt(at(30)))?.toISOString()).toBe(at(10).toISOString());
        // Both claimed at 30 s with a 60 s lease: nothing due until the leases run out at 90 s.
        const claimed = await store.outbox.claim({
          owner: "dsp_a",
          now: at(30),
          leaseSeconds: 60,
          limit: 10,
          maxAttempts: 6,
        });
        expect(claimed.length).toBe(2);
        expect(await store.outbox.oldestDueAt(at(60))).toBeUndefined();
        expect((await store.outbox.oldestDueAt(at(100)))?.toISOString()).toBe(at(90).toISOString());
        // Delivered events are never due again.
        for (const c of claimed) {
          await store.outbox.finish({
            eventId: c.event.id,
            attempt: c.attempt,
            owner: "dsp_a",
            now: at(40),
            outcome: "delivered",
            statusCode: 204,
            durationMs: 5,
            error: null,
            url: "https://client.example/hook",
            nextAttemptAt: null,
          });
        }
        expect(await store.outbox.oldestDueAt(at(100))).toBeUndefined();
      });

      it("counts the due events: pending and due, and claims whose lease ran out", async () => {
        // The case above leaves every event of this suite delivered, so only these two count.
        const { organisation } = await store.organisations.ensure({
          id: newId("org"),
          name: `Outbox Depth ${randomBytes(4).toString("hex")}`,
          creditorName: "Creditor BV",
          now: T0,
        });
        await store.webhookEndpoints.set({
          organisationId: organisation.id,
          url: "https://client.example/hook",
          secret: "whsec_conformance_secret",
          now: T0,
        });
        const data = { order_id: null, case_number: null, reference: null, case_event: null };
        const base = { organisationId: organisation.id, type: "payment.received" as const, data };
        await store.outbox.enqueue({ ...base, now: at(210) });
        await store.outbox.enqueue({ ...base, now: at(220) });
        expect(await store.outbox.dueCount(at(205))).toBe(0);
        expect(await store.outbox.dueCount(at(215))).toBe(1);
        expect(await store.outbox.dueCount(at(230))).toBe(2);
        // One claimed at 230 s with a 60 s lease: it counts again once the lease runs out at 290 s.
        const [claimed] = await store.outbox.claim({
          owner: "dsp_b",
          now: at(230),
          leaseSeconds: 60,
          limit: 1,
          maxAttempts: 6,
        });
        expect(await store.outbox.dueCount(at(260))).toBe(1);
        expect(await store.outbox.dueCount(at(300))).toBe(2);
        const again = await store.outbox.claim({
          owner: "dsp_b",
          now: at(300),
          leaseSeconds: 60,
          limit: 10,
          maxAttempts: 6,
        });
        for (const c of again) {
          await store.outbox.finish({
            eventId: c.event.id,
            attempt: c.attempt,
            owner: "dsp_b",
            now: at(301),
            outcome: "delivered",
            statusCode: 204,
            durationMs: 5,
            error: null,
            url: "https://client.example/hook",
            nextAttemptAt: null,
          });
        }
        expect(claimed).toBeDefined();
        expect(again.length).toBe(2);
        expect(await store.outbox.dueCount(at(400))).toBe(0);
      });
    });

    describe("transactions", () => {
      it("rolls back every write of a failed transaction", async () => {
        const before = await store.organisations.findByName("Tx Org");
        expect(before).toBeUndefined();
        await expect(
          store.transaction(async (tx) => {
            await tx.organisations.ensure({
              id: "org_00000000000000aa",
              name: "Tx Org",
              creditorName: "Tx",
              now: T0,
            });
            throw new Error("boom");
          }),
        ).rejects.toThrow("boom");
        expect(await store.organisations.findByName("Tx Org")).toBeUndefined();
      });
    });
  });
}

function createHashHex(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}
