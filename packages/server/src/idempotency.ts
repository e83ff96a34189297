import type { IncassoStore, Principal, StoredResponse } from "@incasso/core";
import { FastResponse } from "srvx";
import { ApiError, validationError } from "./api-error.js";
import { requirePrincipal } from "./auth.js";
import { requestFingerprint } from "./internal/request-fingerprint.js";
import type { RouteInterceptor } from "./plugin.js";
import { statusTitle } from "./problem.js";

/** Longest Idempotency-Key (spec section Limits: max 255 characters; longer → 422). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** The shortest retention we allow: 24 hours (docs/decisions/idempotency-keys.md). */
export const MIN_IDEMPOTENCY_RETENTION_SECONDS = 86_400;

/** The lease of a claim when none is set: 30 s (decision idempotency-keys). */
export const DEFAULT_IDEMPOTENCY_LEASE_SECONDS = 30;

/**
 * The leases a host may set, in whole seconds (decision idempotency-lease-setting): at least 5, so
 * a renewal (every third of the lease) has over a second and a half to land even when the event loop
 * or the database is slow, and at most 3600, so a crashed request never keeps its retries out for
 * more than an hour.
 *
 * @example
 * IDEMPOTENCY_LEASE_BOUNDS; // { min: 5, max: 3600 }
 */
export const IDEMPOTENCY_LEASE_BOUNDS = { min: 5, max: 3600 } as const;

/**
 * How long Idempotency-Key records are held and kept, as a host sets them (`createApi({ idempotency
 * })`; decision idempotency-lease-setting).
 *
 * @example
 * const settings: IdempotencySettings = { leaseSeconds: 10, retentionSeconds: 48 * 3600 };
 */
export interface IdempotencySettings {
  /**
   * How long a claim holds without renewal, whole seconds from 5 to 3600; default 30. It is renewed
   * every third of that while the request runs, so only a crashed process lets it lapse: a shorter
   * lease lets the retries after a crash proceed sooner, for more renewals while requests run.
   */
  leaseSeconds?: number;
  /** How long a response is kept; default 24 hours, and a shorter one is raised to that. */
  retentionSeconds?: number;
}

/**
 * Options of {@link idempotency}.
 *
 * @example
 * const options: IdempotencyOptions = { store, retentionSeconds: 48 * 3600 };
 */
export interface IdempotencyOptions extends IdempotencySettings {
  store: IncassoStore;
  /** Told when a finished response could not be stored. */
  onStoreError?: (error: unknown) => void;
}

// Visible ASCII and space: an HTTP field value that survives every proxy unchanged (RFC 9110 §5.5).
const KEY_CHARS = /^[\x20-\x7e]+$/;

/**
 * The lease of {@link idempotency} in seconds: the default when absent, else the value when it is
 * a whole number within {@link IDEMPOTENCY_LEASE_BOUNDS}; a RangeError otherwise, so a host learns
 * of a bad setting when the API is made rather than from a key wedged for long or renewed in a
 * tight loop.
 *
 * @example
 * idempotencyLeaseSeconds(undefined); // 30
 * idempotencyLeaseSeconds(5); // 5
 * idempotencyLeaseSeconds(1); // throws RangeError
 */
export function idempotencyLeaseSeconds(value: number | undefined): number {
  if (value === undefined) return DEFAULT_IDEMPOTENCY_LEASE_SECONDS;
  const { min, max } = IDEMPOTENCY_LEASE_BOUNDS;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(
      `The idempotency lease must be a whole number of seconds from ${min} to ${max}, not ${value}`,
    );
  }
  return value;
}

/**
 * Reads the `Idempotency-Key` header: undefined when absent, the key when valid, and a 422
 * `validation_error` on field `Idempotency-Key` when it is over 255 characters (spec section
 * Limits) or empty or holds other than visible ASCII.
 *
 * @example
 * parseIdempotencyKey(new Headers({ "idempotency-key": "order-2026-0001" })); // "order-2026-0001"
 */
export function parseIdempotencyKey(headers: Headers): string | undefined {
  const value = headers.get("idempotency-key");
  if (value === null) return undefined;
  if (value.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw validationError([
      {
        field: "Idempotency-Key",
        code: "too_long",
        message: `must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters, not ${value.length}`,
      },
    ]);
  }
  if (value.trim() === "" || !KEY_CHARS.test(value)) {
    throw validationError([
      { field: "Idempotency-Key", code: "invalid", message: "must be 1 to 255 visible ASCII characters" },
    ]);
  }
  return value;
}

/**
 * The key space of a principal's Idempotency-Keys: its organisation, with test keys apart from live
 * ones, so a request tried out with a test key never stands in for the same request sent live
 * (decision idempotency-keys).
 *
 * @example
 * idempotencyScope({ organisationId: "org_0123456789abcdef", mode: "test" }); // "org_0123456789abcdef:test"
 */
export function idempotencyScope(principal: Pick<Principal, "organisationId" | "mode">): string {
  return principal.mode === "live" ? principal.organisationId : `${principal.organisationId}:test`;
}

/**
 * What a record's fingerprint holds: the request's content and, since 2026-11-25, after a colon
 * the id of the API key that made the record (decision idempotency-keys). A record of before holds
 * the content alone and is judged by its content, as it was then.
 */
function recordOf(fingerprint: string): { content: string; keyId: string | undefined } {
  const at = fingerprint.indexOf(":");
  return at < 0
    ? { content: fingerprint, keyId: undefined }
    : { content: fingerprint.slice(0, at), keyId: fingerprint.slice(at + 1) };
}

/**
 * Whether the outcome of a request made with key `keyId` may be shown to `principal`: only what the
 * principal could read (spec GET /orders: "only orders submitted with this key, or all
 * API-submitted orders of the organisation"), so a replay never shows an order that GET answers 404.
 */
function mayReplayTo(principal: Principal, keyId: string | undefined): boolean {
  return keyId === undefined || keyId === principal.keyId || principal.visibility === "organisation";
}

function otherKeyConflict(key: string): ApiError {
  return new ApiError({
    status: 409,
    code: "idempotency_conflict",
    detail: `The Idempotency-Key "${key}" belongs to a request of another API key of the organisation; use a new key for a request of this key.`,
  });
}

function conflict(key: string): ApiError {
  return new ApiError({
    status: 409,
    code: "idempotency_conflict",
    detail: `The Idempotency-Key "${key}" was used before for a request with different content; use a new key for a new request.`,
  });
}

function replay(stored: StoredResponse): Response {
  const headers = new Headers(stored.headers);
  headers.set("Idempotency-Replayed", "true");
  return new FastResponse(stored.body === "" ? null : stored.body, {
    status: stored.status,
    statusText: statusTitle(stored.status),
    headers,
  });
}

// Headers of a response that belong to the request itself, not to its outcome: not replayed.
const PER_REQUEST_HEADERS = new Set([
  "x-request-id",
  "ratelimit-limit",
  "ratelimit-remaining",
  "ratelimit-reset",
  "date",
]);

/**
 * The Idempotency-Key machinery of POST /orders (spec: POST /orders rule 3, section Limits), of POST
 * /creditors and of hold, withdraw and payments (decision orders-control-idempotency), as a
 * route interceptor. Keys are scoped per organisation. The first request with a key claims it; a
 * repeat with identical content (method, path and canonical JSON body) gets the exact earlier
 * response with `Idempotency-Replayed: true`; different content gets 409 `idempotency_conflict`;
 * a repeat while the first still runs gets 409 `idempotency_in_progress` with `Retry-After`.
 * Responses with a 5xx status are not kept, so a retry after 502 `upstream_error` runs again as
 * the spec advises; such a request's key keeps its content, so only a retry with the same content
 * runs again. Test keys have a key space of their own (`idempotencyScope`). A record names the
 * API key that made it: its outcome is replayed to that key and to keys that may read the
 * organisation's orders, any other key gets 409 `idempotency_conflict`. Kept at least 24
 * hours, pruned automatically.
 *
 * @example
 * defineRoute({ method: "POST", path: "/orders", auth: "required",
 *   guards: [ordersRateLimit({ limiter })], interceptors: [idempotency({ store })], ... });
 */
export function idempotency(options: IdempotencyOptions): RouteInterceptor {
  const retentionSeconds = Math.max(
    MIN_IDEMPOTENCY_RETENTION_SECONDS,
    options.retentionSeconds ?? MIN_IDEMPOTENCY_RETENTION_SECONDS,
  );
  const leaseSeconds = idempotencyLeaseSeconds(options.leaseSeconds);
  const store = options.store;
  const report =
    options.onStoreError ?? ((error: unknown) => console.error("idempotency store error", error));
  let lastPrune = 0;

  return async (ctx, next) => {
    const key = parseIdempotencyKey(ctx.request.headers);
    if (key === undefined) return next();
    const principal = requirePrincipal(ctx);
    const scope = idempotencyScope(principal);
    const content = await requestFingerprint(ctx);
    // The record names the key that made it, so a replay can be kept from a key that may not see
    // its outcome; the content alone still decides whether the request is the same.
    const print = `${content}:${principal.keyId}`;
    const now = ctx.now();
    if (now.getTime() - lastPrune >= 600_000) {
      lastPrune = now.getTime();
      store.idempotency.prune(now).catch(report);
    }
    const token = globalThis.crypto.randomUUID();
    const claimWith = (fingerprint: string) =>
      store.idempotency.claim({ scope, key, fingerprint, token, now, leaseSeconds, retentionSeconds });
    let claim = await claimWith(print);
    if (claim.outcome === "in_progress" && claim.fingerprint === content) {
      // A record of before the key was recorded, released after a 5xx or crashed, with this
      // content: taken over under its own fingerprint, as a retry then would have done.
      claim = await claimWith(content);
    }
    if (claim.outcome === "completed") {
      const record = recordOf(claim.fingerprint);
      if (record.content !== content) throw conflict(key);
      if (!mayReplayTo(principal, record.keyId)) throw otherKeyConflict(key);
      return replay(claim.response);
    }
    if (claim.outcome === "in_progress") {
      const record = recordOf(claim.fingerprint);
      if (record.content !== content) throw conflict(key);
      // Another key's request, running or ended in a 5xx: its content is this key's to retry only
      // when it is the same key (the store takes a record over for the same fingerprint alone).
      if (record.keyId !== undefined && record.keyId !== principal.keyId) throw otherKeyConflict(key);
      // The first request usually ends within seconds; its lease is the most we could have to wait.
      const leaseLeft = Math.ceil((claim.leaseExpiresAt.getTime() - now.getTime()) / 1000);
      const retryAfter = Math.min(Math.max(leaseLeft, 1), 5);
      throw new ApiError({
        status: 409,
        code: "idempotency_in_progress",
        detail: `A request with the Idempotency-Key "${key}" is still being processed; retry in ${retryAfter} s.`,
        headers: { "Retry-After": String(retryAfter) },
      });
    }

    const ref = { scope, key, token };
    const renewal = setInterval(
      () => {
        const leaseExpiresAt = new Date(ctx.now().getTime() + leaseSeconds * 1000);
        store.idempotency.renew({ ...ref, leaseExpiresAt }).catch(report);
      },
      (leaseSeconds * 1000) / 3,
    );
    renewal.unref?.();
    let response: Response;
    try {
      response = await next();
    } catch (error) {
      clearInterval(renewal);
      await store.idempotency.release(ref).catch(report);
      throw error;
    }
    clearInterval(renewal);
    if (response.status >= 500) {
      await store.idempotency.release(ref).catch(report);
      return response;
    }
    const body = await response.text();
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!PER_REQUEST_HEADERS.has(name)) headers[name] = value;
    });
    try {
      const kept = await store.idempotency.complete({
        ...ref,
        response: { status: response.status, headers, body },
        now: ctx.now(),
      });
      if (!kept)
        report(new Error(`The claim on Idempotency-Key "${key}" lapsed before the response was stored.`));
    } catch (error) {
      // The work is done: the client gets its response even when keeping it failed.
      report(error);
    }
    return new FastResponse(body === "" ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** The documented request header of routes with idempotency, for the OpenAPI document. */
export const IDEMPOTENCY_REQUEST_HEADERS = {
  "Idempotency-Key": {
    description:
      "Optional, at most 255 visible ASCII characters. A repeat with identical content returns the earlier " +
      "response with Idempotency-Replayed: true; other content under the key is 409 idempotency_conflict, " +
      "also after a 5xx. Kept at least 24 hours per organisation, test keys apart from live ones; another " +
      "API key's request is replayed only to a key that may read its orders, else 409 idempotency_conflict.",
  },
} as const;

/** The documented response header of a replay, for the OpenAPI document. */
export const IDEMPOTENCY_RESPONSE_HEADERS = {
  "Idempotency-Replayed": { description: "`true` when this is the stored response of an earlier request." },
} as const;

/**
 * The `onStoreError` of {@link idempotency} that reports through the API's logger, so a database
 * outage shows in the structured log rather than as a stack on stderr; none without a logger.
 *
 * @example
 * idempotency({ store, ...storeErrorsTo(logger) });
 */
export function storeErrorsTo(
  logger: { error(message: string, fields?: Record<string, unknown>): void } | undefined,
): Pick<IdempotencyOptions, "onStoreError"> {
  if (logger === undefined) return {};
  return { onStoreError: (error) => logger.error("idempotency store error", { error: String(error) }) };
}
