import { issueApiKey, type Principal } from "@incasso/core";
import { openStore, type SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiKeyCache, apiKeyCacheOf, forgetApiKey, setApiKeyCache } from "./api-key-cache.js";
import { authenticateKey } from "./auth.js";

function principal(keyId: string): Principal {
  return {
    keyId,
    organisationId: "org_0123456789abcdef",
    organisationName: "Acme BV",
    creditorName: "Acme BV",
    mode: "test",
    visibility: "own",
    creditorManagement: false,
    rateLimits: { perMinute: 30, perDay: 500 },
  };
}

describe("ApiKeyCache", () => {
  it("keeps an entry for exactly the TTL", () => {
    let t = 1_000;
    const cache = new ApiKeyCache({ ttlMs: 5_000, clock: () => t });
    cache.set("h1", principal("key_a"));
    t = 5_999;
    expect(cache.get("h1")?.keyId).toBe("key_a");
    t = 6_000;
    expect(cache.get("h1")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("holds at most maxEntries, dropping the oldest first", () => {
    const cache = new ApiKeyCache({ maxEntries: 2, clock: () => 0 });
    cache.set("h1", principal("key_a"));
    cache.set("h2", principal("key_b"));
    cache.set("h3", principal("key_c"));
    expect(cache.size).toBe(2);
    expect(cache.get("h1")).toBeUndefined();
    expect(cache.get("h2")?.keyId).toBe("key_b");
    expect(cache.get("h3")?.keyId).toBe("key_c");
  });

  it("drops expired entries before live ones when full", () => {
    let t = 0;
    const cache = new ApiKeyCache({ ttlMs: 10, maxEntries: 2, clock: () => t });
    cache.set("h1", principal("key_a"));
    t = 5;
    cache.set("h2", principal("key_b"));
    t = 12; // h1 expired, h2 still live
    cache.set("h3", principal("key_c"));
    expect(cache.get("h2")?.keyId).toBe("key_b");
    expect(cache.get("h3")?.keyId).toBe("key_c");
  });

  it("forget drops every entry of one key id and nothing else", () => {
    const cache = new ApiKeyCache({ clock: () => 0 });
    cache.set("h1", principal("key_a"));
    cache.set("h2", principal("key_b"));
    cache.forget("key_a");
    expect(cache.get("h1")).toBeUndefined();
    expect(cache.get("h2")?.keyId).toBe("key_b");
  });

  it("with a TTL of 0 keeps nothing", () => {
    const cache = new ApiKeyCache({ ttlMs: 0 });
    cache.set("h1", principal("key_a"));
    expect(cache.size).toBe(0);
  });

  it("hands out frozen principals, so no request can change one for the next", () => {
    const cache = new ApiKeyCache({ clock: () => 0 });
    cache.set("h1", principal("key_a"));
    const p = cache.get("h1");
    expect(Object.isFrozen(p)).toBe(true);
    expect(Object.isFrozen(p?.rateLimits)).toBe(true);
  });
});

describe("authenticateKey with the store's key cache", () => {
  let store: SqlStore;
  beforeAll(async () => {
    store = await openStore();
  });
  afterAll(async () => {
    await store.close();
  });

  it("answers a repeat from the cache, so a revocation by another process shows after the TTL", async () => {
    const { key, record } = await issueApiKey(store, { organisation: "Cache One", mode: "test" });
    expect((await authenticateKey(store, key))?.keyId).toBe(record.id);
    // Revoked behind the cache's back (as another process on a shared database would):
    await store.apiKeys.revoke(record.id, new Date());
    expect((await authenticateKey(store, key))?.keyId).toBe(record.id);
    apiKeyCacheOf(store).clear(); // what the TTL does a few seconds later
    expect(await authenticateKey(store, key)).toBeUndefined();
  });

  it("forgetApiKey evicts one key of one store", async () => {
    const { key, record } = await issueApiKey(store, { organisation: "Cache Three", mode: "test" });
    await authenticateKey(store, key);
    await store.apiKeys.revoke(record.id, new Date());
    forgetApiKey(store, record.id);
    expect(await authenticateKey(store, key)).toBeUndefined();
  });

  it("never caches an unknown, malformed or revoked key", async () => {
    const cache = new ApiKeyCache();
    setApiKeyCache(store, cache);
    const { key, record } = await issueApiKey(store, { organisation: "Cache Four", mode: "test" });
    await store.apiKeys.revoke(record.id, new Date());
    expect(await authenticateKey(store, key)).toBeUndefined();
    expect(await authenticateKey(store, `svc_test_${"A".repeat(32)}`)).toBeUndefined();
    expect(await authenticateKey(store, "not a key")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("setApiKeyCache with a TTL of 0 looks every key up", async () => {
    setApiKeyCache(store, new ApiKeyCache({ ttlMs: 0 }));
    const { key, record } = await issueApiKey(store, { organisation: "Cache Five", mode: "test" });
    expect((await authenticateKey(store, key))?.keyId).toBe(record.id);
    await store.apiKeys.revoke(record.id, new Date());
    expect(await authenticateKey(store, key)).toBeUndefined();
  });
});
