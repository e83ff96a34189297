import type { IncassoStore, Principal } from "@incasso/core";

/** How long a looked-up key is trusted without asking the database again (docs/decisions/auth-key-cache.md). */
export const API_KEY_CACHE_TTL_MS = 5_000;

/** How many keys the cache holds at most; the oldest entry goes first when it is full. */
export const API_KEY_CACHE_MAX_ENTRIES = 10_000;

/**
 * Options of {@link ApiKeyCache}.
 *
 * @example
 * const options: ApiKeyCacheOptions = { ttlMs: 2_000, maxEntries: 1_000 };
 */
export interface ApiKeyCacheOptions {
  /** Lifetime of an entry in milliseconds; default {@link API_KEY_CACHE_TTL_MS}. 0 turns the cache off. */
  ttlMs?: number;
  /** Most entries held; default {@link API_KEY_CACHE_MAX_ENTRIES}. */
  maxEntries?: number;
  /** A monotonic clock in milliseconds; default `performance.now`. Tests pass their own. */
  clock?: () => number;
}

/**
 * A short-lived, bounded, in-process cache of authenticated keys, keyed by the key's SHA-256 hash.
 * Only valid (known, unrevoked) keys are kept: an unknown or revoked key is looked up every time,
 * so a flood of made-up keys cannot fill it and a new key works at once. A revocation made through
 * this process ({@link ApiKeyCache.forget}) takes effect immediately; one made by another process
 * on the same database takes effect within the TTL (docs/decisions/auth-key-cache.md).
 *
 * @example
 * const cache = new ApiKeyCache({ ttlMs: 5_000 });
 * cache.set(hash, principal);
 * cache.get(hash); // the principal, for five seconds
 */
export class ApiKeyCache {
  readonly #entries = new Map<string, { principal: Principal; expiresAt: number }>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #clock: () => number;

  constructor(options: ApiKeyCacheOptions = {}) {
    this.#ttlMs = Math.max(0, options.ttlMs ?? API_KEY_CACHE_TTL_MS);
    this.#maxEntries = Math.max(1, options.maxEntries ?? API_KEY_CACHE_MAX_ENTRIES);
    this.#clock = options.clock ?? (() => performance.now());
  }

  /** How many entries are held (expired ones included until they are next touched). */
  get size(): number {
    return this.#entries.size;
  }

  /** The cached principal of the key with this hash, or undefined when absent or expired. */
  get(hash: string): Principal | undefined {
    const entry = this.#entries.get(hash);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#clock()) {
      this.#entries.delete(hash);
      return undefined;
    }
    return entry.principal;
  }

  /** Keeps the principal of a valid key for the TTL. */
  set(hash: string, principal: Principal): void {
    if (this.#ttlMs === 0) return;
    this.#entries.delete(hash);
    if (this.#entries.size >= this.#maxEntries) this.#evict();
    // Frozen: one object now serves many requests, so none of them may change it for the others.
    Object.freeze(principal.rateLimits);
    this.#entries.set(hash, { principal: Object.freeze(principal), expiresAt: this.#clock() + this.#ttlMs });
  }

  /** Drops every entry of the key with this id (after a revocation). */
  forget(keyId: string): void {
    for (const [hash, entry] of this.#entries) {
      if (entry.principal.keyId === keyId) this.#entries.delete(hash);
    }
  }

  /** Drops everything. */
  clear(): void {
    this.#entries.clear();
  }

  #evict(): void {
    const now = this.#clock();
    for (const [hash, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(hash);
    // Still full of live keys: drop the oldest (a Map iterates in insertion order).
    for (const hash of this.#entries.keys()) {
      if (this.#entries.size < this.#maxEntries) break;
      this.#entries.delete(hash);
    }
  }
}

const caches = new WeakMap<IncassoStore, ApiKeyCache>();

/**
 * The key cache of a store in this process, made on first use. Everything in the process that
 * authenticates against this store object shares it, and so does everything that revokes through
 * it with {@link forgetApiKey}.
 *
 * @example
 * const cache = apiKeyCacheOf(store);
 */
export function apiKeyCacheOf(store: IncassoStore): ApiKeyCache {
  let cache = caches.get(store);
  if (cache === undefined) {
    cache = new ApiKeyCache();
    caches.set(store, cache);
  }
  return cache;
}

/**
 * Makes a revocation effective at once for requests this process authenticates against `store`
 * (the operator endpoint calls it after `incasso keys revoke`).
 *
 * @example
 * await revokeApiKey(store, id);
 * forgetApiKey(store, id);
 */
export function forgetApiKey(store: IncassoStore, keyId: string): void {
  caches.get(store)?.forget(keyId);
}

/**
 * Replaces the key cache of a store, for example with `new ApiKeyCache({ ttlMs: 0 })` to look
 * every key up (several processes revoking keys on a shared database that must take effect at once).
 *
 * @example
 * setApiKeyCache(store, new ApiKeyCache({ ttlMs: 0 }));
 */
export function setApiKeyCache(store: IncassoStore, cache: ApiKeyCache): void {
  caches.set(store, cache);
}
