import type { Principal } from "@incasso/core";
import { openStore, type SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyRateLimit, ordersRateLimit } from "./key-rate-limits.js";
import type { RouteContext } from "./plugin.js";
import { MemoryRateLimiter, type RateLimiter } from "./rate-limit.js";
import { StoreRateLimiter } from "./store-rate-limiter.js";

let store: SqlStore;
beforeAll(async () => {
  store = await openStore();
});
afterAll(async () => {
  await store.close();
});

const principal: Principal = {
  keyId: "key_0000000000000001",
  organisationId: "org_0000000000000001",
  organisationName: "Acme",
  creditorName: "Acme",
  mode: "test",
  visibility: "own",
  creditorManagement: false,
  rateLimits: { perMinute: 2, perDay: 3 },
};

function ctx(at: string, p: Principal | null = principal): RouteContext {
  return {
    request: new Request("http://x/"),
    url: new URL("http://x/"),
    body: undefined,
    query: {},
    params: {},
    clientIp: undefined,
    requestId: "req_1",
    responseHeaders: new Headers(),
    state: p ? { principal: p } : {},
    now: () => new Date(at),
  };
}

async function outcome(guard: (c: RouteContext) => unknown, c: RouteContext) {
  try {
    await guard(c);
    return { status: 200, headers: Object.fromEntries(c.responseHeaders) };
  } catch (e) {
    const err = e as { status: number; code: string; headers: Record<string, string> };
    return {
      status: err.status,
      code: err.code,
      retryAfter: err.headers?.["Retry-After"],
      headers: Object.fromEntries(c.responseHeaders),
    };
  }
}

// The same rules whether the windows are counted one by one in memory or in one database statement.
describe.each([
  ["in memory", (): RateLimiter => new MemoryRateLimiter()],
  ["in the database, both windows at once", (): RateLimiter => new StoreRateLimiter(store)],
])("ordersRateLimit, counters %s", (_name, limiter) => {
  it("applies the key's minute and day limits; headers report the minute window", async () => {
    const guard = ordersRateLimit({ limiter: limiter() });
    expect(await outcome(guard, ctx("2026-11-21T10:00:15Z"))).toEqual({
      status: 200,
      headers: { "ratelimit-limit": "2", "ratelimit-remaining": "1", "ratelimit-reset": "45" },
    });
    await outcome(guard, ctx("2026-11-21T10:00:16Z"));
    expect(await outcome(guard, ctx("2026-11-21T10:00:59Z"))).toMatchObject({
      status: 429,
      code: "rate_limited",
      retryAfter: "1",
      headers: { "ratelimit-limit": "2", "ratelimit-remaining": "0", "ratelimit-reset": "1" },
    });
    // Next minute: the minute allows it, and the day (3 counted: the refused one was not) allows one more.
    expect((await outcome(guard, ctx("2026-11-21T10:01:00Z"))).status).toBe(200);
    expect(await outcome(guard, ctx("2026-11-21T10:01:01Z"))).toMatchObject({
      status: 429,
      retryAfter: String(14 * 3600 - 61),
      headers: { "ratelimit-remaining": "0" },
    });
    // A new UTC day starts afresh.
    expect((await outcome(guard, ctx("2026-11-22T00:00:00Z"))).status).toBe(200);
  });

  it("needs a principal: without one it is 401", async () => {
    expect(
      await outcome(ordersRateLimit({ limiter: limiter() }), ctx("2026-11-21T10:00:00Z", null)),
    ).toMatchObject({
      status: 401,
      code: "unauthorized",
    });
  });
});

describe("keyRateLimit", () => {
  it("defaults to 120 per minute per key", async () => {
    const guard = keyRateLimit({ limiter: new MemoryRateLimiter() });
    expect(await outcome(guard, ctx("2026-11-21T10:00:00Z"))).toEqual({
      status: 200,
      headers: { "ratelimit-limit": "120", "ratelimit-remaining": "119", "ratelimit-reset": "60" },
    });
    const small = keyRateLimit({ limiter: new MemoryRateLimiter(), perMinute: 1 });
    await outcome(small, ctx("2026-11-21T10:00:00Z"));
    expect(await outcome(small, ctx("2026-11-21T10:00:30Z"))).toMatchObject({
      status: 429,
      retryAfter: "30",
    });
  });
});
