import { type IncassoStore, issueApiKey } from "@incasso/core";
import {
  fixtureApi,
  fixtureStore,
  type RunningTransport,
  testOrderExecutions,
  transports,
} from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// POST /orders arrives with the order engine; until then POST /__test/orders carries exactly the
// guards it will use (ordersRateLimit, idempotency), so every rule is proven over every transport.
let store: IncassoStore;
let api: ReturnType<typeof fixtureApi>;
beforeAll(async () => {
  store = await fixtureStore();
  api = fixtureApi({ store });
});
afterAll(() => store.close());

const order = (key: string, body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

function rateHeaders(res: Response) {
  return [
    res.headers.get("ratelimit-limit"),
    res.headers.get("ratelimit-remaining"),
    res.headers.get("ratelimit-reset"),
  ];
}

describe.each(transports)("POST /orders machinery over $name", (transport) => {
  let t: RunningTransport;
  const org = `machinery ${transport.name}`;
  const key = async (
    options: {
      perMinute?: number;
      perDay?: number;
      organisation?: string;
      visibility?: "own" | "organisation";
    } = {},
  ) =>
    (await issueApiKey(store, { organisation: options.organisation ?? org, mode: "test", ...options })).key;
  beforeAll(async () => {
    t = await transport.start(api);
  });
  afterAll(() => t.close());

  it("every response, 201 and 4xx alike, carries the minute window's RateLimit headers", async () => {
    const k = await key();
    const ok = await t.request("/__test/orders", order(k, {}));
    expect(ok.status).toBe(201);
    // The fixture's clock stands at 10:00:00, so the minute window resets in 60 s.
    expect(rateHeaders(ok)).toEqual(["30", "29", "60"]);
    const invalid = await t.request("/__test/orders", order(k, { delay_ms: -1 }));
    expect(invalid.status).toBe(422);
    expect(rateHeaders(invalid)).toEqual(["30", "28", "60"]);
    const badJson = await t.request("/__test/orders", order(k, "{"));
    expect(badJson.status).toBe(400);
    expect(rateHeaders(badJson)).toEqual(["30", "27", "60"]);
    const refused = await t.request("/__test/orders", order(k, { refuse: true }));
    expect(refused.status).toBe(422);
    expect(rateHeaders(refused)).toEqual(["30", "26", "60"]);
  });

  it("over the per-minute limit → 429 rate_limited with Retry-After and the same headers", async () => {
    const k = await key({ perMinute: 2 });
    expect((await t.request("/__test/orders", order(k, {}))).status).toBe(201);
    expect((await t.request("/__test/orders", order(k, {}))).status).toBe(201);
    const res = await t.request("/__test/orders", order(k, {}));
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("60");
    expect(rateHeaders(res)).toEqual(["2", "0", "60"]);
    expect(await res.json()).toMatchObject({
      status: 429,
      code: "rate_limited",
      detail: "Rate limit of 2 requests per minute reached for this key; retry in 60 s.",
    });
  });

  it("over the per-day limit → 429 with Retry-After until the end of the UTC day", async () => {
    const k = await key({ perMinute: 10, perDay: 2 });
    await t.request("/__test/orders", order(k, {}));
    await t.request("/__test/orders", order(k, {}));
    const res = await t.request("/__test/orders", order(k, {}));
    expect(res.status).toBe(429);
    // 10:00:00 UTC → 14 hours until the day window ends.
    expect(res.headers.get("retry-after")).toBe(String(14 * 3600));
    expect(rateHeaders(res)).toEqual(["10", "7", "60"]);
    expect(((await res.json()) as { detail: string }).detail).toContain("per day (UTC)");
  });

  it("limits count per key: another key of the organisation has its own budget", async () => {
    const a = await key({ perMinute: 1 });
    const b = await key({ perMinute: 1 });
    expect((await t.request("/__test/orders", order(a, {}))).status).toBe(201);
    expect((await t.request("/__test/orders", order(a, {}))).status).toBe(429);
    expect((await t.request("/__test/orders", order(b, {}))).status).toBe(201);
  });

  it("without a key → 401 before anything is counted", async () => {
    const res = await t.request("/__test/orders", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("ratelimit-limit")).toBeNull();
  });

  it("same Idempotency-Key and identical content → the exact earlier response with Idempotency-Replayed", async () => {
    const k = await key();
    const h = { "idempotency-key": `same-${transport.name}` };
    const first = await t.request("/__test/orders", order(k, { note: "a", delay_ms: 0 }, h));
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotency-replayed")).toBeNull();
    const firstBody = await first.text();
    const runs = testOrderExecutions.count;
    // Same content, other key order and spacing.
    const again = await t.request("/__test/orders", order(k, '{ "delay_ms": 0, "note": "a" }', h));
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(again.headers.get("location")).toBe("/api/v1/__test/orders/x");
    expect(again.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(again.headers.get("ratelimit-remaining")).toBe("28");
    expect(await again.text()).toBe(firstBody);
    expect(testOrderExecutions.count).toBe(runs);
  });

  it("same key, different content → 409 idempotency_conflict", async () => {
    const k = await key();
    const h = { "idempotency-key": `conflict-${transport.name}` };
    expect((await t.request("/__test/orders", order(k, { note: "a" }, h))).status).toBe(201);
    const res = await t.request("/__test/orders", order(k, { note: "b" }, h));
    expect(res.status).toBe(409);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toMatchObject({ status: 409, code: "idempotency_conflict" });
  });

  it("a 4xx the handler produced is kept and replayed too", async () => {
    const k = await key();
    const h = { "idempotency-key": `refused-${transport.name}` };
    const first = await t.request("/__test/orders", order(k, { refuse: true }, h));
    expect(first.status).toBe(422);
    const again = await t.request("/__test/orders", order(k, { refuse: true }, h));
    expect(again.status).toBe(422);
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(await again.text()).toBe(await first.text());
  });

  it("a 5xx is not kept: a retry with the same key runs again (spec: 502, retry with the same key)", async () => {
    const k = await key();
    const h = { "idempotency-key": `upstream-${transport.name}` };
    expect((await t.request("/__test/orders", order(k, { fail: 502 }, h))).status).toBe(502);
    const retry = await t.request("/__test/orders", order(k, { fail: 502 }, h));
    expect(retry.status).toBe(502);
    expect(retry.headers.get("idempotency-replayed")).toBeNull();
    // The key keeps the content of the request that failed.
    const changed = await t.request("/__test/orders", order(k, { fail: 502, note: "other" }, h));
    expect(changed.status).toBe(409);
    expect(await changed.json()).toMatchObject({ code: "idempotency_conflict" });
  });

  it("keys are scoped per organisation", async () => {
    const mine = await key();
    const theirs = await key({ organisation: `${org} elsewhere` });
    const h = { "idempotency-key": `scoped-${transport.name}` };
    expect((await t.request("/__test/orders", order(mine, { note: "x" }, h))).status).toBe(201);
    const other = await t.request("/__test/orders", order(theirs, { note: "y" }, h));
    expect(other.status).toBe(201);
    expect(other.headers.get("idempotency-replayed")).toBeNull();
    // Another key of the same organisation shares the key space: one that may see the
    // organisation's orders gets the replay, one that sees only its own a conflict, never the other
    // key's outcome (decision idempotency-keys).
    const sibling = await key({ visibility: "organisation" });
    const replay = await t.request("/__test/orders", order(sibling, { note: "x" }, h));
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    const ownSibling = await key({ visibility: "own" });
    const refused = await t.request("/__test/orders", order(ownSibling, { note: "x" }, h));
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: "idempotency_conflict" });
  });

  it("an Idempotency-Key over 255 characters → 422; 255 is accepted", async () => {
    const k = await key();
    const res = await t.request("/__test/orders", order(k, {}, { "idempotency-key": "k".repeat(256) }));
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      code: "validation_error",
      errors: [
        { field: "Idempotency-Key", code: "too_long", message: "must be at most 255 characters, not 256" },
      ],
    });
    const ok = await t.request(
      "/__test/orders",
      order(k, {}, { "idempotency-key": `${transport.name}`.padEnd(255, "k") }),
    );
    expect(ok.status).toBe(201);
  });

  it("a non-ASCII Idempotency-Key → 422 invalid", async () => {
    const k = await key();
    const res = await t.request("/__test/orders", order(k, {}, { "idempotency-key": "sleutel-é" }));
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ errors: [{ field: "Idempotency-Key", code: "invalid" }] });
  });

  it("concurrent requests with one key: one runs, the others get 409 idempotency_in_progress with Retry-After", async () => {
    const k = await key();
    const h = { "idempotency-key": `concurrent-${transport.name}` };
    const runs = testOrderExecutions.count;
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => t.request("/__test/orders", order(k, { delay_ms: 400 }, h))),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of responses.filter((x) => x.status === 409)) {
      expect(r.headers.get("retry-after")).toBe("5");
      expect(await r.json()).toMatchObject({ code: "idempotency_in_progress" });
    }
    expect(testOrderExecutions.count).toBe(runs + 1);
    const after = await t.request("/__test/orders", order(k, { delay_ms: 400 }, h));
    expect(after.headers.get("idempotency-replayed")).toBe("true");
  });
});
