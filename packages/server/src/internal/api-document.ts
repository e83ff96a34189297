import { WebhookEventSchema } from "@incasso/core";
import pkg from "../../package.json" with { type: "json" };
import { buildOpenApiDocument, type OpenApiDocument } from "../openapi.js";
import { EXAMPLE_WEBHOOK_EVENT, OPERATION_EXAMPLES } from "../openapi-examples.js";
import type { ApiPlugin, RouteDefinition } from "../plugin.js";

/**
 * What {@link apiDocument} needs from the API.
 *
 * @example
 * const input: ApiDocumentInput = { routes, plugins, basePath: "/api/v1" };
 */
export interface ApiDocumentInput {
  routes: readonly RouteDefinition[];
  plugins: readonly ApiPlugin[];
  basePath: string;
  publicUrl?: string | undefined;
  /** The host's security schemes; default the API keys' (decision server-pluggable-authentication). */
  securitySchemes?: Record<string, Record<string, unknown>> | undefined;
  /** Problem codes of the host's order rules. */
  hostCodes?: Readonly<Record<string, { status: number; when: string }>> | undefined;
}

/**
 * The server's root as an OpenAPI server URL, for the root-level routes: the origin of an absolute
 * public URL, or `/`.
 */
function rootServerUrl(publicUrl: string | undefined): string {
  if (publicUrl === undefined) return "/";
  try {
    return new URL(publicUrl).origin;
  } catch {
    return "/";
  }
}

/**
 * The API's OpenAPI 3.1 document: its routes, the plugins' tags, and the webhook a client
 * receives (spec section Events).
 *
 * @example
 * const doc = apiDocument({ routes, plugins, basePath: "/api/v1" });
 * doc.openapi; // "3.1.0"
 */
export function apiDocument(input: ApiDocumentInput): OpenApiDocument {
  return buildOpenApiDocument({
    routes: input.routes,
    basePath: input.basePath,
    title: "incasso debt-collection order API",
    version: pkg.version,
    description: "Submit collection orders, read and steer them, and use the public WIK and court tools.",
    tags: input.plugins.flatMap((p) => p.tags ?? []),
    ...(input.publicUrl ? { serverUrl: input.publicUrl } : {}),
    securitySchemes: input.securitySchemes,
    hostCodes: input.hostCodes,
    rootServerUrl: rootServerUrl(input.publicUrl),
    examples: OPERATION_EXAMPLES,
    webhooks: [
      {
        name: "event",
        operationId: "receiveEvent",
        example: EXAMPLE_WEBHOOK_EVENT,
        summary: "A change on one of the client's cases (or a ping), POSTed to its registered endpoint",
        description:
          "Verify X-Service-Signature over the raw body before parsing it, and reject a timestamp more than " +
          "300 seconds away (spec section Events). Tolerate unknown event types and fields.",
        schema: WebhookEventSchema,
        headers: {
          "X-Service-Signature": {
            description: 'Hex HMAC-SHA256 of `timestamp + "." + raw body`, keyed with the signing secret.',
          },
          "X-Service-Timestamp": { description: "Unix seconds at signing." },
          "X-Service-Event": { description: "The event type." },
        },
      },
    ],
  });
}
