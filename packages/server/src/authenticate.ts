import { type IncassoStore, type Principal, parseBearerToken } from "@incasso/core";
import { authenticateKey } from "./auth.js";

/**
 * What a host's {@link Authenticate} gets besides the request: the store's own key check for the
 * same request, so a host can accept its own credentials and the API keys side by side.
 *
 * @example
 * const authenticate: Authenticate = async (request, { apiKey }) => (await ownToken(request)) ?? apiKey();
 */
export interface AuthenticateHelpers {
  /**
   * The default: the request's `Authorization: Bearer <API key>` looked up in the store (through
   * the key cache), or undefined when there is no such header or the key is malformed, unknown or
   * revoked (spec section Authentication, rule 3).
   */
  apiKey(): Promise<Principal | undefined>;
}

/**
 * How the API learns who calls (decision server-pluggable-authentication): a function from the
 * request to a principal, or `undefined` for "nobody", which a route with `auth: "required"`
 * answers with the 401 problem it gives for a missing or bad key. The principal drives everything
 * downstream exactly as a key's does: `organisationId` (which must be an organisation in the store),
 * `mode` (a `test` principal creates no case), `visibility` (`own` sees the orders of its own
 * `keyId`), `creditorManagement`, and `rateLimits` with `keyId` as the counter's and the
 * Idempotency-Key scope's name. A host's own credential gets a `keyId` of its own, one that never
 * equals a store key's id (`key_…`), for example `usr_42`.
 *
 * What it throws is not the client's doing: 500 `internal_error`, logged. A host that wants
 * another answer throws an `ApiError` (401 with its own challenge, 403, 503).
 *
 * @example
 * const authenticate: Authenticate = async (request, { apiKey }) => {
 *   const session = await mySessions.read(request.headers.get("cookie"));
 *   if (session === undefined) return apiKey();
 *   return { keyId: `usr_${session.userId}`, organisationId: session.organisationId,
 *     organisationName: "Acme BV", creditorName: "Acme BV", mode: "live", visibility: "own",
 *     creditorManagement: false, rateLimits: { perMinute: 30, perDay: 500 } };
 * };
 */
export type Authenticate = (
  request: Request,
  helpers: AuthenticateHelpers,
) => Principal | undefined | Promise<Principal | undefined>;

/**
 * The default {@link Authenticate}: the Bearer API key of the request, looked up in `store`
 * (decision auth-key-cache). A building block for a host's own function, which may call it itself
 * instead of through {@link AuthenticateHelpers.apiKey}.
 *
 * @example
 * const keys = apiKeyAuthentication(store);
 * const api = createApi({ store, caseSystem, authenticate: async (request, helpers) =>
 *   (await hostToken(request)) ?? keys(request, helpers) });
 */
export function apiKeyAuthentication(store: IncassoStore | undefined): Authenticate {
  return (request) => {
    const token = parseBearerToken(request.headers.get("authorization"));
    return token !== undefined && store !== undefined ? authenticateKey(store, token) : undefined;
  };
}
