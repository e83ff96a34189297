import {
  hashApiKey,
  type IncassoStore,
  isWellFormedApiKey,
  type Principal,
  parseBearerToken,
  principalOfKey,
} from "@incasso/core";
import { ApiError } from "./api-error.js";
import { apiKeyCacheOf } from "./api-key-cache.js";
import type { Authenticate } from "./authenticate.js";
import { noteKeyUse } from "./internal/key-last-used.js";
import type { RouteAuth, RouteContext } from "./plugin.js";
import { principalProblem } from "./principal-check.js";

/** Where the authenticated principal lives in `ctx.state`. */
export const PRINCIPAL_STATE_KEY = "principal";

/**
 * The 401 of the spec (section Authentication, rule 3: missing, invalid or revoked key), with the
 * `WWW-Authenticate` challenge RFC 9110 §15.5.2 requires on every 401 (RFC 6750 §3 for Bearer).
 *
 * @example
 * throw unauthorized(true);
 */
export function unauthorized(keyWasSent: boolean): ApiError {
  return new ApiError({
    status: 401,
    code: "unauthorized",
    detail: keyWasSent
      ? "The API key is invalid or revoked."
      : "This endpoint needs an API key: send Authorization: Bearer <API_KEY>.",
    headers: {
      "WWW-Authenticate": keyWasSent
        ? 'Bearer realm="incasso", error="invalid_token"'
        : 'Bearer realm="incasso"',
    },
  });
}

/**
 * The principal a guard put on the request, or undefined (no key, or an optional route called
 * without a valid one).
 *
 * @example
 * const principal = principalOf(ctx);
 * if (principal) console.log(principal.organisationName);
 */
export function principalOf(ctx: Pick<RouteContext, "state">): Principal | undefined {
  return ctx.state[PRINCIPAL_STATE_KEY] as Principal | undefined;
}

/**
 * The principal of a route with `auth: "required"`; throws 401 when there is none (which the
 * auth step already prevents, so this only guards against a route declared with the wrong auth).
 *
 * @example
 * handle: (ctx) => ({ organisation: requirePrincipal(ctx).organisationName })
 */
export function requirePrincipal(ctx: Pick<RouteContext, "state">): Principal {
  const principal = principalOf(ctx);
  if (principal === undefined) throw unauthorized(false);
  return principal;
}

/**
 * The principal of a key, from the store's short-lived key cache or else from the database (spec
 * section Authentication, rule 3: malformed, unknown and revoked are all "no principal"). Only a
 * valid key is cached, for a few seconds (docs/decisions/auth-key-cache.md). Its use is recorded
 * for the console's "last used", at most once a minute (decision keys-last-used).
 *
 * @example
 * const principal = await authenticateKey(store, "svc_test_...");
 */
export async function authenticateKey(store: IncassoStore, key: string): Promise<Principal | undefined> {
  if (!isWellFormedApiKey(key)) return undefined;
  const hash = hashApiKey(key);
  const cache = apiKeyCacheOf(store);
  const cached = cache.get(hash);
  if (cached !== undefined) {
    noteKeyUse(store, cached.keyId, Date.now());
    return cached;
  }
  const record = await store.apiKeys.findByHash(hash);
  if (record === undefined || record.revokedAt !== null) return undefined;
  const principal = principalOfKey(record);
  cache.set(hash, principal);
  noteKeyUse(store, principal.keyId, Date.now());
  return principal;
}

/**
 * Authenticates one request for a route and puts the principal into `ctx.state`. By default it
 * reads the Bearer key strictly (malformed, overlong, non-ASCII or injected values never reach the
 * database) and looks it up (through the key cache of {@link authenticateKey}); a host's own
 * `authenticate` (decision server-pluggable-authentication) decides instead, with the key check at
 * hand. A `required` route without a principal gets 401 `unauthorized`; an `optional` one
 * (GET /ping) continues without one (docs/decisions/auth-ping-invalid-key.md).
 *
 * @throws {Error} when a host's `authenticate` returns something that is not a principal (see
 *   `principalProblem`): a mistake of the host's, answered 500 and logged, never let through.
 * @example
 * await authenticateRequest(ctx, "required", store);
 */
export async function authenticateRequest(
  ctx: RouteContext,
  auth: RouteAuth,
  store: IncassoStore | undefined,
  authenticate?: Authenticate,
): Promise<void> {
  if (auth === "none") return;
  const header = ctx.request.headers.get("authorization");
  let principal: Principal | undefined;
  if (authenticate === undefined) {
    const token = parseBearerToken(header);
    principal = token !== undefined && store !== undefined ? await authenticateKey(store, token) : undefined;
  } else {
    const apiKey = async () => {
      const token = parseBearerToken(header);
      return token !== undefined && store !== undefined ? authenticateKey(store, token) : undefined;
    };
    const given: unknown = await authenticate(ctx.request, { apiKey });
    if (given !== undefined && given !== null) {
      const problem = principalProblem(given);
      if (problem !== undefined) throw new Error(`authenticate returned an unusable principal: ${problem}.`);
      principal = given as Principal;
    }
  }
  if (principal !== undefined) {
    ctx.state[PRINCIPAL_STATE_KEY] = principal;
    return;
  }
  if (auth === "required") throw unauthorized(header !== null);
}
