import { rmSync } from "node:fs";
import { issueApiKey } from "@incasso/core";
import { openStore } from "@incasso/store-sql";
import { newDataDir } from "@incasso/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { createApi } from "./create-api.js";
import { idempotencyScope, parseIdempotencyKey, storeErrorsTo } from "./idempotency.js";
import { fingerprintOf } from "./internal/request-fingerprint.js";

// A copy of a fresh cluster (newDataDir): initdb is most of a new directory's cost.
const dir = await newDataDir("incasso-idem-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T0 = new Date("2026-11-21T10:00:00.000Z");
const post = (key: string, idem: string, body: unknown) =>
  new Request("http://x/api/v1/creditors", {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": idem },
    body: JSON.stringify(body),
  });

describe("idempotency", () => {
  it("parses the header: absent, valid, too long, empty, non-ASCII", () => {
    expect(parseIdempotencyKey(new Headers())).toBeUndefined();
    expect(parseIdempotencyKey(new Headers({ "idempotency-key": "a b-1" }))).toBe("a b-1");
    expect(() => parseIdempotencyKey(new Headers({ "idempotency-key": "x".repeat(256) }))).toThrow(
      expect.objectContaining({ status: 422, code: "validation_error" }),
    );
    expect(() => parseIdempotencyKey(new Headers({ "idempotency-key": "é" }))).toThrow(
      expect.objectContaining({ status: 422 }),
    );
  });

  it("survives a restart, frees a crashed claim after its lease, and is shared between instances", {
    timeout: 90_000,
  }, async () => {
    let clock = T0;
    const now = () => clock;
    let store = await openStore({ dataDir: dir });
    const { key } = await issueApiKey(store, {
      organisation: "Restart BV",
      mode: "test",
      creditorManagement: true,
    });
    const first = await createApi({ store, now, orders: false }).fetch(
      post(key, "k-1", { reference: "R1", name: "One" }),
    );
    expect(first.status).toBe(201);
    const firstBody = await first.text();
    await store.close();

    store = await openStore({ dataDir: dir });
    const api = createApi({ store, now, orders: false });
    const replay = await api.fetch(post(key, "k-1", { reference: "R1", name: "One" }));
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(await replay.text()).toBe(firstBody);

    // Requests that crashed after their claims: each record stays in progress until its lease
    // ends, and then only a retry with the same content takes the key over. (A test key's records
    // have a key space of their own.)
    const org = (await store.organisations.findByName("Restart BV"))?.id as string;
    const scope = idempotencyScope({ organisationId: org, mode: "test" });
    expect(scope).toBe(`${org}:test`);
    const crashed = await api.fetch(post(key, "k-2", { reference: "R2", name: "Two" }));
    expect(crashed.status).toBe(201);
    const crash = async (idem: string, body: unknown) =>
      store.idempotency.claim({
        scope,
        key: idem,
        fingerprint: await fingerprintOf("POST", "/api/v1/creditors", body),
        token: "dead",
        now: clock,
        leaseSeconds: 30,
        retentionSeconds: 86_400,
      });
    await crash("k-3", { reference: "R3", name: "Three" });
    await crash("k-4", { reference: "R4", name: "Four, as first sent" });
    const during = await api.fetch(post(key, "k-3", { reference: "R3", name: "Three" }));
    expect(during.status).toBe(409);
    expect(await during.json()).toMatchObject({ code: "idempotency_in_progress" });
    clock = new Date(T0.getTime() + 30_000);
    const afterLease = await api.fetch(post(key, "k-3", { reference: "R3", name: "Three" }));
    expect(afterLease.status).toBe(201);
    expect(afterLease.headers.get("idempotency-replayed")).toBeNull();
    const changed = await api.fetch(post(key, "k-4", { reference: "R4", name: "Four, changed" }));
    expect(changed.status).toBe(409);
    expect(await changed.json()).toMatchObject({ code: "idempotency_conflict" });

    // Two API instances on one database share counters and idempotency records.
    const other = createApi({ store, now, orders: false });
    const fromOther = await other.fetch(post(key, "k-3", { reference: "R3", name: "Three" }));
    expect(fromOther.headers.get("idempotency-replayed")).toBe("true");
    const a = await api.fetch(
      new Request("http://x/api/v1/creditors", { headers: { authorization: `Bearer ${key}` } }),
    );
    const b = await other.fetch(
      new Request("http://x/api/v1/creditors", { headers: { authorization: `Bearer ${key}` } }),
    );
    expect(Number(a.headers.get("ratelimit-remaining")) - 1).toBe(
      Number(b.headers.get("ratelimit-remaining")),
    );

    // After the retention period the key is free again.
    clock = new Date(T0.getTime() + 86_400_000 + 60_000);
    const expired = await api.fetch(post(key, "k-1", { reference: "R1-again", name: "One again" }));
    expect(expired.status).toBe(201);
    expect(expired.headers.get("idempotency-replayed")).toBeNull();
    await store.close();
  });

  it("a record of one key that crashed or ended in a 5xx is retried by that key only", async () => {
    const store = await openStore();
    const now = () => T0;
    const a = await issueApiKey(store, {
      organisation: "Two Keys BV",
      mode: "live",
      creditorManagement: true,
    });
    const b = await issueApiKey(store, {
      organisation: "Two Keys BV",
      mode: "live",
      visibility: "organisation",
      creditorManagement: true,
    });
    const body = { reference: "R9", name: "Nine" };
    // Key a's request claimed the key and crashed; its lease has run out.
    await store.idempotency.claim({
      scope: a.record.organisationId,
      key: "k-9",
      fingerprint: `${await fingerprintOf("POST", "/api/v1/creditors", body)}:${a.record.id}`,
      token: "dead",
      now: new Date(T0.getTime() - 60_000),
      leaseSeconds: 30,
      retentionSeconds: 86_400,
    });
    const api = createApi({ store, now, orders: false });
    const other = await api.fetch(post(b.key, "k-9", body));
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({ code: "idempotency_conflict" });
    const same = await api.fetch(post(a.key, "k-9", body));
    expect(same.status).toBe(201);
    expect(same.headers.get("idempotency-replayed")).toBeNull();
    // Its outcome is replayed to a key that may see the organisation's orders.
    const replay = await api.fetch(post(b.key, "k-9", body));
    expect([replay.status, replay.headers.get("idempotency-replayed")]).toEqual([201, "true"]);
    await store.close();
  });
});

describe("storeErrorsTo", () => {
  it("reports a failed idempotency write through the logger as one structured line; nothing without one", () => {
    const lines: [string, Record<string, unknown> | undefined][] = [];
    const { onStoreError } = storeErrorsTo({ error: (message, fields) => lines.push([message, fields]) });
    onStoreError?.(new Error("The database is out of reach"));
    expect(lines).toEqual([["idempotency store error", { error: "Error: The database is out of reach" }]]);
    expect(storeErrorsTo(undefined)).toEqual({});
  });
});
