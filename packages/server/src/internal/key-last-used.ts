import type { IncassoStore } from "@incasso/core";

/** A key's use is written at most this often per process (decision keys-last-used). */
const EVERY_MS = 60_000;
/** Keys remembered per store; past this the memory starts over (one extra write per key). */
const MAX_KEYS = 10_000;

const written = new WeakMap<IncassoStore, Map<string, number>>();

/**
 * Records that a key authenticated a request, for the console's "last used" (issue 31, item 5;
 * decision keys-last-used): at most once a minute per key in this process, and the store's own
 * condition keeps other processes from writing more often. The write is not awaited and its
 * failure is ignored: the request does not wait for it and never fails because of it.
 *
 * @example
 * noteKeyUse(store, principal.keyId, Date.now());
 */
export function noteKeyUse(store: IncassoStore, keyId: string, nowMs: number): void {
  const markUsed = store.apiKeys.markUsed;
  if (markUsed === undefined) return;
  let seen = written.get(store);
  if (seen === undefined) {
    seen = new Map();
    written.set(store, seen);
  }
  const last = seen.get(keyId);
  if (last !== undefined && nowMs - last < EVERY_MS) return;
  if (seen.size >= MAX_KEYS) seen.clear();
  seen.set(keyId, nowMs);
  markUsed.call(store.apiKeys, keyId, new Date(nowMs)).catch(() => {
    // Forget the write, so the next request tries again.
    seen.delete(keyId);
  });
}
