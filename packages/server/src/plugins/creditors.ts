import {
  CreateCreditorRequestSchema,
  CreditorListSchema,
  CreditorSchema,
  createCreditor,
  type IncassoStore,
  ListCreditorsQuerySchema,
  listCreditors,
} from "@incasso/core";
import { ApiError } from "../api-error.js";
import { requirePrincipal } from "../auth.js";
import type { Logger } from "../create-api.js";
import {
  IDEMPOTENCY_REQUEST_HEADERS,
  IDEMPOTENCY_RESPONSE_HEADERS,
  type IdempotencySettings,
  idempotency,
  storeErrorsTo,
} from "../idempotency.js";
import { keyRateLimit } from "../key-rate-limits.js";
import { type ApiPlugin, definePlugin, defineRoute, json, type RouteGuard } from "../plugin.js";
import { RATE_LIMIT_HEADERS, type RateLimiter } from "../rate-limit.js";

/**
 * Options of {@link creditorsPlugin}.
 *
 * @example
 * const options: CreditorsPluginOptions = { store, rateLimiter: new StoreRateLimiter(store) };
 */
export interface CreditorsPluginOptions {
  store: IncassoStore;
  rateLimiter: RateLimiter;
  /** Requests per minute per key, shared with the other protected endpoints; default 120. */
  perMinute?: number;
  /** Where a failed write of an idempotency record is reported; default the console. */
  logger?: Logger;
  /** The lease and retention of Idempotency-Key records (decision idempotency-lease-setting). */
  idempotency?: IdempotencySettings;
}

// Checked before the body is read, so a key without the switch learns that first (spec: "Without
// activation: 403 creditor_feature_disabled"), whatever it sent.
const creditorManagementOn: RouteGuard = (ctx) => {
  if (!requirePrincipal(ctx).creditorManagement) {
    throw new ApiError({
      status: 403,
      code: "creditor_feature_disabled",
      detail: "Creditor management is not activated for this key; ask the operator to activate it.",
    });
  }
};

/**
 * GET /creditors and POST /creditors (spec: Creditor management; shapes in
 * docs/decisions/creditors-shapes.md). Both need a key with creditor management on.
 *
 * @example
 * createApi({ store, caseSystem }); // adds this plugin itself (unless `creditors: false`)
 */
export function creditorsPlugin(options: CreditorsPluginOptions): ApiPlugin {
  const limit = keyRateLimit({
    limiter: options.rateLimiter,
    ...(options.perMinute ? { perMinute: options.perMinute } : {}),
  });
  const common = {
    401: { description: "Key missing, invalid or revoked (`unauthorized`)." },
    403: {
      description: "Creditor management is off for this key (`creditor_feature_disabled`).",
      headers: RATE_LIMIT_HEADERS,
    },
    429: { description: "Rate limit reached (`rate_limited`).", headers: RATE_LIMIT_HEADERS },
  };
  return definePlugin({
    name: "creditors",
    tags: [{ name: "creditors", description: "Creditor management (after activation by the operator)" }],
    routes: [
      defineRoute({
        method: "GET",
        path: "/creditors",
        operationId: "listCreditors",
        summary: "List the creditors on whose behalf the client may submit",
        description:
          "Oldest first, a page at a time. The account's own principal is not listed: it is the creditor when an order names none.",
        tags: ["creditors"],
        auth: "required",
        request: { query: ListCreditorsQuerySchema },
        responses: {
          200: {
            description: "A page of creditors.",
            schema: CreditorListSchema,
            headers: RATE_LIMIT_HEADERS,
          },
          ...common,
          422: { description: "Invalid `limit` or `cursor`.", headers: RATE_LIMIT_HEADERS },
        },
        guards: [limit, creditorManagementOn],
        handle: (ctx) => listCreditors(options.store, requirePrincipal(ctx), ctx.query),
      }),
      defineRoute({
        method: "POST",
        path: "/creditors",
        operationId: "createCreditor",
        summary: "Create a creditor under the account",
        description: "Identified by the client's own `reference`, unique within the account.",
        tags: ["creditors"],
        auth: "required",
        request: {
          body: CreateCreditorRequestSchema,
          maxBodyBytes: 64 * 1024,
          headers: IDEMPOTENCY_REQUEST_HEADERS,
        },
        responses: {
          201: {
            description: "The creditor was created.",
            schema: CreditorSchema,
            headers: { ...RATE_LIMIT_HEADERS, ...IDEMPOTENCY_RESPONSE_HEADERS },
          },
          400: { description: "Empty body or invalid JSON." },
          ...common,
          409: {
            description:
              "`creditor_exists`: the reference is taken; `idempotency_conflict` or `idempotency_in_progress`.",
            headers: RATE_LIMIT_HEADERS,
          },
          413: { description: "Body too large." },
          415: { description: "Content-Type is not application/json." },
          422: { description: "Invalid fields; see errors[]." },
        },
        guards: [limit, creditorManagementOn],
        interceptors: [
          idempotency({ ...options.idempotency, store: options.store, ...storeErrorsTo(options.logger) }),
        ],
        handle: async (ctx) =>
          json(await createCreditor(options.store, requirePrincipal(ctx), ctx.body, { now: ctx.now() }), {
            status: 201,
          }),
      }),
    ],
  });
}
