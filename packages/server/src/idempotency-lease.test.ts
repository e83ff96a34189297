import { type CaseSystem, type IncassoStore, issueApiKey } from "@incasso/core";
import { openStore } from "@incasso/store-sql";
import { afterEach, describe, expect, it } from "vitest";
import { createApi } from "./create-api.js";
import {
  DEFAULT_IDEMPOTENCY_LEASE_SECONDS,
  IDEMPOTENCY_LEASE_BOUNDS,
  idempotencyLeaseSeconds,
} from "./idempotency.js";

// Decision idempotency-lease-setting: createApi's `idempotency` option reaches the interceptor of
// every route that takes an Idempotency-Key, and a record a crashed request left in progress is
// taken over once the configured lease has run out, not the default 30 s.

const T0 = new Date("2026-11-28T10:00:00.000Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const post = (key: string, idem: string, path: string, body: unknown) =>
  new Request(`http://x/api/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": idem },
    body: JSON.stringify(body),
  });

type Claim = Parameters<IncassoStore["idempotency"]["claim"]>[0];

/**
 * The store with its idempotency records spied on: every claim's lease and retention are noted,
 * and `crashed` keeps a claim from ever being completed or released, as when the process dies
 * after the handler ran and before its response was kept.
 */
async function spiedStore(options: { crashed: boolean }) {
  const store = await openStore();
  const claims: Pick<Claim, "leaseSeconds" | "retentionSeconds">[] = [];
  const original = store.idempotency;
  store.idempotency = {
    ...original,
    claim: (input) => {
      claims.push({ leaseSeconds: input.leaseSeconds, retentionSeconds: input.retentionSeconds });
      return original.claim(input);
    },
    ...(options.crashed
      ? { complete: async () => true, release: async () => undefined, renew: async () => true }
      : {}),
  };
  return { store, claims };
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe("idempotencyLeaseSeconds", () => {
  it("is 30 s when not set and takes whole seconds from 5 to 3600", () => {
    expect(DEFAULT_IDEMPOTENCY_LEASE_SECONDS).toBe(30);
    expect(IDEMPOTENCY_LEASE_BOUNDS).toEqual({ min: 5, max: 3600 });
    expect(idempotencyLeaseSeconds(undefined)).toBe(30);
    expect(idempotencyLeaseSeconds(5)).toBe(5);
    expect(idempotencyLeaseSeconds(3600)).toBe(3600);
  });

  it("refuses a lease out of bounds or not whole with a RangeError that names the bounds", () => {
    for (const bad of [4, 3601, 7.5, 0, -5, Number.NaN]) {
      expect(() => idempotencyLeaseSeconds(bad)).toThrow(
        new RangeError(`The idempotency lease must be a whole number of seconds from 5 to 3600, not ${bad}`),
      );
    }
  });
});

/** A spied store with a test key allowed to manage creditors; closed after the test. */
async function storeWithKey() {
  const { store, claims } = await spiedStore({ crashed: false });
  close = () => store.close();
  const { key } = await issueApiKey(store, {
    organisation: "Lease BV",
    mode: "test",
    creditorManagement: true,
  });
  return { store, claims, key };
}

describe("createApi({ idempotency })", () => {
  it("passes the lease and the retention to POST /creditors and POST /orders", async () => {
    const { store, claims, key } = await storeWithKey();
    // The order is refused by the engine's validation (422), after the key was claimed; the case
    // system is never reached.
    const api = createApi({
      store,
      caseSystem: {} as CaseSystem,
      now: () => T0,
      idempotency: { leaseSeconds: 8, retentionSeconds: 2 * 86_400 },
    });
    expect((await api.fetch(post(key, "c-1", "/creditors", { reference: "R1", name: "One" }))).status).toBe(
      201,
    );
    expect((await api.fetch(post(key, "o-1", "/orders", {}))).status).toBe(422);
    expect(claims).toEqual([
      { leaseSeconds: 8, retentionSeconds: 172_800 },
      { leaseSeconds: 8, retentionSeconds: 172_800 },
    ]);
  });

  it("keeps 30 s and 24 hours without the option, and raises a retention under 24 hours", async () => {
    const { store, claims, key } = await storeWithKey();
    await createApi({ store, now: () => T0, orders: false }).fetch(
      post(key, "c-1", "/creditors", { reference: "R1", name: "One" }),
    );
    await createApi({ store, now: () => T0, orders: false, idempotency: { retentionSeconds: 60 } }).fetch(
      post(key, "c-2", "/creditors", { reference: "R2", name: "Two" }),
    );
    expect(claims).toEqual([
      { leaseSeconds: 30, retentionSeconds: 86_400 },
      { leaseSeconds: 30, retentionSeconds: 86_400 },
    ]);
  });

  it("refuses a lease out of bounds when the API is made", async () => {
    const store = await openStore();
    close = () => store.close();
    for (const leaseSeconds of [4, 3601]) {
      expect(() => createApi({ store, orders: false, idempotency: { leaseSeconds } })).toThrow(
        `The idempotency lease must be a whole number of seconds from 5 to 3600, not ${leaseSeconds}`,
      );
    }
  });

  it("lets a retry take over a crashed request's record once the configured lease has run out", async () => {
    const { store } = await spiedStore({ crashed: true });
    close = () => store.close();
    const { key } = await issueApiKey(store, {
      organisation: "Lease BV",
      mode: "test",
      creditorManagement: true,
    });
    let clock = T0;
    const now = () => clock;
    const short = createApi({ store, now, orders: false, idempotency: { leaseSeconds: 8 } });
    const usual = createApi({ store, now, orders: false });
    const body = { reference: "R1", name: "One" };

    // The creditor is made, but its response is never kept: the record stays in progress.
    expect((await short.fetch(post(key, "k-1", "/creditors", body))).status).toBe(201);

    clock = at(7);
    const during = await short.fetch(post(key, "k-1", "/creditors", body));
    expect([during.status, during.headers.get("retry-after")]).toEqual([409, "1"]);
    expect(await during.json()).toMatchObject({ code: "idempotency_in_progress" });

    // At 8 s the lease has run out: the retry runs again and meets the creditor the first run made.
    clock = at(8);
    const after = await short.fetch(post(key, "k-1", "/creditors", body));
    expect(after.status).toBe(409);
    expect(await after.json()).toMatchObject({ code: "creditor_exists" });

    // The same crash under the default lease still holds the key 8 s later.
    clock = T0;
    expect((await usual.fetch(post(key, "k-2", "/creditors", { reference: "R2", name: "Two" }))).status).toBe(
      201,
    );
    clock = at(8);
    const held = await usual.fetch(post(key, "k-2", "/creditors", { reference: "R2", name: "Two" }));
    expect([held.status, held.headers.get("retry-after")]).toEqual([409, "5"]);
    expect(await held.json()).toMatchObject({ code: "idempotency_in_progress" });
    clock = at(30);
    const lapsed = await usual.fetch(post(key, "k-2", "/creditors", { reference: "R2", name: "Two" }));
    expect(await lapsed.json()).toMatchObject({ code: "creditor_exists" });
  });
});
