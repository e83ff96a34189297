import {
  API_KEY_SECURITY_SCHEME,
  definePlugin,
  defineRoute,
  json,
  keyRateLimit,
  RATE_LIMIT_HEADERS,
  requirePrincipal,
} from "@incasso/server";
import { z } from "zod";
import { issueToken, verifyToken } from "./tokens.mjs";

// An agency's plugin (docs/plugins.md): a table of its own, routes of its own, two order rules
// and an after-placement handler, bundled as one HostPlugin for createIncasso.

/** Claims under € 25 are not worth collecting for this agency. */
export const MINIMUM_CENTS = 2500;

const NotedOrder = z.object({
  id: z.string(),
  total_amount_cents: z.int(),
  mode: z.enum(["live", "test"]),
  placed_at: z.string(),
});
const ReferenceNotes = z
  .object({ reference: z.string(), orders: z.array(NotedOrder) })
  .meta({ id: "AgencyReferenceNotes", description: "The orders the agency noted under one reference." });
const IssuedToken = z
  .object({ token: z.string(), key_id: z.string(), expires_at: z.string() })
  .meta({ id: "AgencyToken", description: "A signed token for the caller, valid for an hour." });

/**
 * The agency's plugin: give it to `createIncasso(target, { plugins: [plugin] })` and its `authenticate`
 * and `securitySchemes` to `api`.
 *
 * @param {{ tokenSecret: string, perMinute?: number, now?: () => Date }} options the clock `now` must be the API's
 * @example
 * const agency = agencyPlugin({ tokenSecret: process.env.AGENCY_TOKEN_SECRET });
 * await createIncasso(undefined, { plugins: [agency.plugin], api: { authenticate: agency.authenticate, securitySchemes: agency.securitySchemes } });
 */
export function agencyPlugin(options) {
  /** @type {import("@incasso/store-sql").SqlDatabase | undefined} */
  let db;
  const database = () => {
    if (db === undefined) throw new Error("The agency plugin has not started.");
    return db;
  };

  /** @type {import("@incasso/server").Authenticate} */
  const authenticate = (request, { apiKey }) => {
    const { ours, principal } = verifyToken(
      options.tokenSecret,
      request,
      (options.now ?? (() => new Date()))(),
    );
    // A token of ours that is bad or expired is nobody (401), never passed on to the key check.
    if (ours) return principal;
    return apiKey();
  };

  /** @type {import("@incasso/server").PluginFactory} */
  const routes = (env) => {
    // One bucket for the agency's routes, counted per caller wherever the limiter keeps counts.
    const limit = keyRateLimit({
      limiter: env.rateLimiter,
      perMinute: options.perMinute ?? 60,
      bucket: "agency",
    });
    return definePlugin({
      name: "agency",
      routes: [
        defineRoute({
          method: "POST",
          path: "/agency/tokens",
          operationId: "agencyIssueToken",
          summary: "Issue a signed token for the caller",
          tags: ["Agency"],
          auth: "required",
          responses: {
            201: { description: "The token.", schema: IssuedToken, headers: RATE_LIMIT_HEADERS },
            401: { description: "No valid key or token." },
            429: { description: "Rate limited.", headers: RATE_LIMIT_HEADERS },
          },
          guards: [limit],
          handle: (ctx) => {
            const issued = issueToken(options.tokenSecret, requirePrincipal(ctx), { now: ctx.now() });
            return json(
              { token: issued.token, key_id: issued.keyId, expires_at: issued.expiresAt },
              { status: 201 },
            );
          },
        }),
        defineRoute({
          method: "GET",
          path: "/agency/references/:reference",
          operationId: "agencyReferenceNotes",
          summary: "The orders the agency noted under a reference",
          tags: ["Agency"],
          auth: "required",
          request: { params: z.object({ reference: z.string().min(1).max(100) }) },
          responses: {
            200: {
              description: "The noted orders, oldest first.",
              schema: ReferenceNotes,
              headers: RATE_LIMIT_HEADERS,
            },
            401: { description: "No valid key or token." },
            429: { description: "Rate limited.", headers: RATE_LIMIT_HEADERS },
          },
          guards: [limit],
          handle: async (ctx) => {
            const principal = requirePrincipal(ctx);
            const { rows } = await database().query(
              `SELECT order_id, total_amount_cents, mode, placed_at FROM agency_orders
                WHERE organisation_id = $1 AND reference = $2 ORDER BY placed_at, order_id`,
              [principal.organisationId, ctx.params.reference],
            );
            return {
              reference: ctx.params.reference,
              orders: rows.map((r) => ({
                id: String(r.order_id),
                total_amount_cents: Number(r.total_amount_cents),
                mode: r.mode,
                placed_at: new Date(String(r.placed_at)).toISOString(),
              })),
            };
          },
        }),
      ],
    });
  };

  /** @type {import("@incasso/app").HostPlugin} */
  const plugin = {
    name: "agency",
    // Versions 1000–1009 belong to this plugin; a released step is never edited, a change is a new one.
    migrations: [
      {
        version: 1000,
        name: "agency orders",
        statements: [
          `CREATE TABLE agency_orders (
             order_id text PRIMARY KEY,
             organisation_id text NOT NULL,
             reference text,
             total_amount_cents bigint NOT NULL,
             mode text NOT NULL,
             placed_at timestamptz NOT NULL
           )`,
          "CREATE INDEX agency_orders_reference ON agency_orders (organisation_id, reference)",
        ],
      },
    ],
    api: routes,
    orderHooks: {
      codes: { amount_below_minimum: "An invoice is under the agency's minimum of € 25." },
      orderRules: [
        ({ order }) => {
          const small = order.invoices.find((i) => i.amount_cents < MINIMUM_CENTS);
          return small === undefined
            ? undefined
            : {
                refuse: {
                  code: "amount_below_minimum",
                  message: `Invoice ${small.invoice_number} is under € 25; the agency does not collect it.`,
                },
              };
        },
        async ({ order, principal }) => {
          if (order.reference === null) return undefined;
          const { rows } = await database().query(
            "SELECT 1 FROM agency_orders WHERE organisation_id = $1 AND reference = $2 LIMIT 1",
            [principal.organisationId, order.reference],
          );
          // rows, not rowCount: PGlite counts no rows for a SELECT.
          return rows.length > 0
            ? {
                warnings: [
                  {
                    code: "reference_sent_before",
                    message: `Referentie ${order.reference} is eerder ingediend.`,
                  },
                ],
              }
            : undefined;
        },
      ],
      // After the order is stored, off the client's request; at least once, so idempotent on the id.
      orderPlaced: [
        async ({ order, principal }) => {
          await database().query(
            `INSERT INTO agency_orders (order_id, organisation_id, reference, total_amount_cents, mode, placed_at)
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (order_id) DO NOTHING`,
            [
              order.id,
              principal.organisationId,
              order.reference,
              order.total_amount_cents,
              order.mode,
              order.created_at,
            ],
          );
        },
      ],
    },
    start: ({ store }) => {
      db = store.database;
    },
    close: () => {
      db = undefined;
    },
  };

  return {
    plugin,
    authenticate,
    // The document names both: the agency's token and the API keys, either one (OpenAPI 3.1 §4.8.27).
    securitySchemes: {
      agencyToken: {
        type: "http",
        scheme: "bearer",
        bearerFormat: "agt_ token issued by POST /agency/tokens",
      },
      bearerAuth: API_KEY_SECURITY_SCHEME,
    },
  };
}
