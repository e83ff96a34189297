import { z } from "zod";
import { principalOf } from "../auth.js";
import { type ApiPlugin, definePlugin, defineRoute } from "../plugin.js";

/**
 * The spec's Ping response. `features.creditor_management` is a boolean: the spec leaves its type
 * open (docs/decisions/server-ping.md).
 *
 * @example
 * PingResponseSchema.parse({ status: "ok", time: "2026-11-21T10:00:00.000Z", authenticated: false, features: { creditor_management: false } });
 */
export const PingResponseSchema = z
  .object({
    status: z.literal("ok"),
    time: z.iso.datetime(),
    authenticated: z.boolean().describe("false without a valid key"),
    client: z
      .object({
        name: z.string(),
        mode: z.enum(["live", "test"]),
        creditor: z.string().describe("Name of the linked principal"),
      })
      .optional()
      .describe("Only with a valid key"),
    features: z.object({
      creditor_management: z.boolean().describe("Whether creditor management is on for the key"),
    }),
  })
  .meta({ id: "PingResponse", description: "Connectivity check (spec: Ping response)." });

/** The body of GET /ping. */
export type PingResponse = z.infer<typeof PingResponseSchema>;

/**
 * The time of a ping answer, `Date.toISOString()` formatted once per millisecond rather than once
 * per request: a busy ping endpoint gets many requests within one.
 *
 * @example
 * const isoTime = pingTimeFormatter();
 * isoTime(new Date(0)); // "1970-01-01T00:00:00.000Z"
 */
export function pingTimeFormatter(): (date: Date) => string {
  let lastTime = Number.NaN;
  let lastIso = "";
  return (date) => {
    const time = date.getTime();
    if (time !== lastTime) {
      // An invalid date (NaN) never matches, so it throws here as toISOString always did.
      lastIso = date.toISOString();
      lastTime = time;
    }
    return lastIso;
  };
}

/**
 * The body of GET /ping for a request without a valid key (spec: Ping response): the same object
 * the route answers, as JSON text.
 *
 * @example
 * anonymousPingBody("2026-11-25T12:00:00.000Z");
 * // '{"status":"ok","time":"2026-11-25T12:00:00.000Z","authenticated":false,"features":{"creditor_management":false}}'
 */
export function anonymousPingBody(isoTime: string): string {
  return JSON.stringify(anonymousPing(isoTime));
}

// Also for an invalid or revoked key: the spec says "false without a valid key"
// (docs/decisions/auth-ping-invalid-key.md).
function anonymousPing(isoTime: string): PingResponse {
  return { status: "ok", time: isoTime, authenticated: false, features: { creditor_management: false } };
}

/**
 * GET /ping: works with or without a key (spec: GET /ping). With a valid key it shows the client
 * (organisation name, mode, linked creditor) and whether creditor management is on; without one,
 * or with an invalid or revoked one, `authenticated` is false.
 *
 * @example
 * const api = createApi({ publicOnly: true }); // pingPlugin() is built in
 */
export function pingPlugin(): ApiPlugin {
  const isoTime = pingTimeFormatter();
  return definePlugin({
    name: "ping",
    tags: [{ name: "service", description: "Connectivity and the interface description" }],
    routes: [
      defineRoute({
        method: "GET",
        path: "/ping",
        operationId: "ping",
        summary: "Connectivity check",
        description: "Answers with or without a key; `authenticated` is false without a valid key.",
        tags: ["service"],
        auth: "optional",
        responses: {
          200: { description: "The service is up.", schema: PingResponseSchema },
          429: { description: "Too many requests." },
        },
        handle: (ctx): PingResponse => {
          const principal = principalOf(ctx);
          if (principal === undefined) return anonymousPing(isoTime(ctx.now()));
          return {
            status: "ok",
            time: isoTime(ctx.now()),
            authenticated: true,
            client: {
              name: principal.organisationName,
              mode: principal.mode,
              creditor: principal.creditorName,
            },
            features: { creditor_management: principal.creditorManagement },
          };
        },
      }),
    ],
  });
}
