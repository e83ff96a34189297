import { z } from "zod";
import { problemCodeDescription } from "./error-codes.js";
import { problemExample } from "./openapi-examples.js";
import type { RouteDefinition } from "./plugin.js";
import { ProblemSchema } from "./problem-schema.js";

/** A JSON object of the OpenAPI document; kept loose because the document is data, not code. */
export type OpenApiDocument = Record<string, unknown> & {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
    headers?: Record<string, unknown>;
  };
};

/**
 * The OpenAPI security scheme of the store's API keys (spec section Authentication), the document's
 * default; a host that accepts the keys beside its own credentials lists it with its own scheme.
 *
 * @example
 * createApi({ store, caseSystem, authenticate, securitySchemes: {
 *   hostToken: { type: "http", scheme: "bearer", bearerFormat: "JWT" }, bearerAuth: API_KEY_SECURITY_SCHEME } });
 */
export const API_KEY_SECURITY_SCHEME: Readonly<Record<string, unknown>> = Object.freeze({
  type: "http",
  scheme: "bearer",
  description:
    "An API key: svc_live_... creates cases, svc_test_... validates only (spec section Authentication).",
});

/**
 * Input of {@link buildOpenApiDocument}.
 *
 * @example
 * const input: OpenApiInput = { routes: [], basePath: "/api/v1", title: "incasso", version: "0.0.0" };
 */
export interface OpenApiInput {
  routes: readonly RouteDefinition[];
  basePath: string;
  title: string;
  version: string;
  description?: string;
  tags?: { name: string; description: string }[];
  /** Absolute URL of the API; the base path alone is used when absent. */
  serverUrl?: string;
  /**
   * The server URL of routes declared `root` (health probes): their path item names it in its own
   * `servers`, since they are not below the base path. Default `/`.
   */
  rootServerUrl?: string;
  /** Requests the service sends to clients (OpenAPI 3.1 `webhooks`), such as the signed event POST. */
  webhooks?: OpenApiWebhook[];
  /**
   * Examples per operationId, for routes that declare none themselves: the request body and the
   * body per status. Problem statuses without one get the kernel's problem example.
   */
  examples?: Record<string, { request?: unknown; responses: Record<number, unknown> }>;
  /**
   * The security schemes of the routes that need a caller, by name, each an alternative; default
   * `{ bearerAuth: API_KEY_SECURITY_SCHEME }` (decision server-pluggable-authentication).
   */
  securitySchemes?: Record<string, Record<string, unknown>> | undefined;
  /** Problem codes a host adds (its order rules' refusals), with status and when, for the code table. */
  hostCodes?: Readonly<Record<string, { status: number; when: string }>> | undefined;
  /** The document's licence (OpenAPI 3.1 §4.8.4); default MIT, the project's licence. */
  license?: { name: string; identifier?: string; url?: string };
}

/**
 * One outgoing request the service makes to a client's endpoint, for the document's `webhooks`.
 *
 * @example
 * const hook: OpenApiWebhook = { name: "event", summary: "A case changed", schema: WebhookEventSchema,
 *   headers: { "X-Service-Signature": { description: "hex HMAC-SHA256" } } };
 */
export interface OpenApiWebhook {
  name: string;
  /** Unique among the document's operations; default `NAME` + `Webhook`. */
  operationId?: string;
  /** An example body. */
  example?: unknown;
  summary: string;
  description?: string;
  schema: z.ZodType;
  headers?: Record<string, { description: string }>;
}

type Json = Record<string, unknown>;

/** Converts one zod schema, hoisting named sub-schemas (meta `id`) into components. */
function convert(schema: z.ZodType, io: "input" | "output", components: Json): Json {
  const raw = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Json;
  const defs = (raw.$defs ?? {}) as Record<string, Json>;
  const rename = new Map<string, string>();
  for (const [id, def] of Object.entries(defs)) {
    // A schema used both in requests and responses may differ (defaults make fields required in
    // output); keep both, the request form under an `Input` suffix.
    const existing = components[id];
    const name =
      existing === undefined || JSON.stringify(existing) === JSON.stringify(def) || io === "output"
        ? id
        : `${id}Input`;
    rename.set(id, name);
  }
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node === null || typeof node !== "object") return node;
    const out: Json = {};
    for (const [k, v] of Object.entries(node as Json)) {
      if (k === "$defs" || k === "$schema") continue;
      if (k === "$ref" && typeof v === "string" && v.startsWith("#/$defs/")) {
        const id = v.slice("#/$defs/".length);
        out[k] = `#/components/schemas/${rename.get(id) ?? id}`;
      } else out[k] = rewrite(v);
    }
    return out;
  };
  for (const [id, def] of Object.entries(defs)) {
    const name = rename.get(id) ?? id;
    if (io === "input" && components[name] !== undefined && name === id) continue;
    components[name] = rewrite(def);
  }
  return rewrite(raw) as Json;
}

// A function stands for an example made when the document is built (see RouteResponse.example).
function exampleValue(example: unknown): unknown {
  return typeof example === "function" ? (example as () => unknown)() : example;
}

// A named example (Media Type Object `examples`, OpenAPI 3.1 §4.8.14): renderers show those
// where some skip the single `example`.
function examplesOf(name: string, value: unknown): Json {
  return value === undefined ? {} : { examples: { [name]: { value } } };
}

// Response headers every answer carries, named once in components and referred to (OpenAPI 3.1
// §4.8.16.1 Responses Object `headers`).
const COMPONENT_HEADERS: Json = {
  "X-Request-Id": {
    description:
      "The request's id: the client's own X-Request-Id when it sent a valid one, else one the service made; quote it when reporting a problem.",
    schema: { type: "string" },
    example: "req_4037986b8fbebbb600e5e9442a000000",
  },
  "Retry-After": {
    description: "Seconds to wait before trying again (RFC 9110 §10.2.3).",
    schema: { type: "integer", minimum: 0 },
    example: 30,
  },
};

// Every schema name a node refers to, to keep only components something uses.
function collectRefs(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) for (const item of node) collectRefs(item, into);
  else if (node !== null && typeof node === "object") {
    for (const [k, v] of Object.entries(node as Json)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith("#/components/schemas/")) {
        into.add(v.slice("#/components/schemas/".length));
      } else collectRefs(v, into);
    }
  }
}

function usedSchemas(roots: unknown[], schemas: Json): Json {
  const used = new Set<string>();
  collectRefs(roots, used);
  const queue = [...used];
  while (queue.length > 0) {
    const name = queue.pop() as string;
    const found = new Set<string>();
    collectRefs(schemas[name], found);
    for (const n of found) {
      if (!used.has(n)) {
        used.add(n);
        queue.push(n);
      }
    }
  }
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
}

function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

function objectProperties(schema: z.ZodType | undefined, components: Json): [string, Json, boolean][] {
  if (schema === undefined) return [];
  let json = convert(schema, "input", components);
  // A named query schema comes back as a reference; its properties become the parameters (and
  // the component, used by nothing else, is left out of the document).
  if (typeof json.$ref === "string") {
    json = (components[json.$ref.slice("#/components/schemas/".length)] ?? {}) as Json;
  }
  const props = (json.properties ?? {}) as Record<string, Json>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => [name, s, required.has(name)]);
}

/**
 * Builds the OpenAPI 3.1 document from the route table and its zod schemas. Nothing in it is
 * written by hand, so it cannot drift from what the server does (architecture: "OpenAPI 3.1 is
 * generated").
 *
 * @example
 * const doc = buildOpenApiDocument({ routes: api.routes, basePath: "/api/v1", title: "incasso", version: "1.0.0" });
 * doc.openapi; // "3.1.0"
 */
export function buildOpenApiDocument(input: OpenApiInput): OpenApiDocument {
  const securitySchemes = input.securitySchemes ?? { bearerAuth: API_KEY_SECURITY_SCHEME };
  // Each scheme is an alternative (OpenAPI 3.1 §4.8.10: one of the requirement objects suffices).
  const callers = Object.keys(securitySchemes).map((name) => ({ [name]: [] }));
  const schemas: Json = {};
  convert(ProblemSchema, "output", schemas);
  // Response (output) forms first, so a schema's plain name always means its response form and a
  // request form that differs (defaults make fields required in output) gets the `Input` suffix,
  // whatever order the routes come in.
  const routes = input.routes.filter((route) => route.openapi !== false);
  for (const route of routes) {
    for (const r of Object.values(route.responses)) if (r.schema) convert(r.schema, "output", schemas);
  }
  for (const hook of input.webhooks ?? []) convert(hook.schema, "output", schemas);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = toOpenApiPath(route.path);
    // OpenAPI 3.1 §4.8.9: a path item's own `servers` replace the document's for its operations.
    paths[path] ??= route.root ? { servers: [{ url: input.rootServerUrl ?? "/" }] } : {};
    const parameters: Json[] = [];
    for (const [name, schema] of objectProperties(route.request?.params, schemas)) {
      parameters.push({ name, in: "path", required: true, schema });
    }
    for (const [name, schema, required] of objectProperties(route.request?.query, schemas)) {
      const { description, ...rest } = schema;
      parameters.push({ name, in: "query", required, schema: rest, ...(description ? { description } : {}) });
    }
    for (const [name, h] of Object.entries(route.request?.headers ?? {})) {
      parameters.push({
        name,
        in: "header",
        required: h.required ?? false,
        description: h.description,
        schema: { type: "string" },
      });
    }
    const responses: Json = {};
    const examples = input.examples?.[route.operationId];
    for (const [status, r] of Object.entries(route.responses)) {
      const code = Number(status);
      const isProblem = code >= 400;
      const schema = r.schema ?? (isProblem ? ProblemSchema : undefined);
      const entry: Json = { description: r.description };
      if (schema) {
        const example =
          exampleValue(r.example) ??
          examples?.responses[code] ??
          (isProblem ? problemExample(route.operationId, code) : undefined);
        entry.content = {
          [isProblem ? "application/problem+json" : "application/json"]: {
            schema: convert(schema, "output", schemas),
            ...examplesOf(
              isProblem ? String((example as { code?: unknown } | undefined)?.code ?? status) : status,
              example,
            ),
          },
        };
      }
      // X-Request-Id is on every answer (decision server-response-headers); Retry-After on every
      // 429 and 503 (spec section Errors; RFC 9110 §15.6.4 for 503).
      const headers: Json = { "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" } };
      for (const [n, h] of Object.entries(r.headers ?? {})) {
        headers[n] =
          n === "Retry-After"
            ? { $ref: "#/components/headers/Retry-After" }
            : { description: h.description, schema: h.schema ?? { type: "string" } };
      }
      if (code === 429 || code === 503) headers["Retry-After"] = { $ref: "#/components/headers/Retry-After" };
      entry.headers = headers;
      responses[status] = entry;
    }
    const op: Json = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      ...(route.tags ? { tags: route.tags } : {}),
      security: route.auth === "none" ? [] : route.auth === "optional" ? [{}, ...callers] : callers,
      ...(parameters.length > 0 ? { parameters } : {}),
      responses,
    };
    const body = route.request?.body;
    if (body) {
      const example = exampleValue(route.request?.example) ?? examples?.request;
      op.requestBody = {
        required: route.request?.documentBodyRequired ?? !route.request?.bodyOptional,
        content: {
          "application/json": {
            schema: convert(body, "input", schemas),
            ...examplesOf(route.operationId, example),
          },
        },
      };
    }
    paths[path][route.method.toLowerCase()] = op;
  }
  const webhooks: Json = {};
  for (const hook of input.webhooks ?? []) {
    webhooks[hook.name] = {
      post: {
        operationId: hook.operationId ?? `${hook.name}Webhook`,
        summary: hook.summary,
        ...(hook.description ? { description: hook.description } : {}),
        parameters: Object.entries(hook.headers ?? {}).map(([name, h]) => ({
          name,
          in: "header",
          required: true,
          description: h.description,
          schema: { type: "string" },
        })),
        // The receiver authenticates the request by its signature, not by a scheme the document
        // could name (spec section Events), so no security requirement applies.
        security: [],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: convert(hook.schema, "output", schemas),
              ...examplesOf(hook.name, exampleValue(hook.example)),
            },
          },
        },
        responses: {
          "200": { description: "Any 2xx status within the time-out acknowledges the delivery." },
        },
      },
    };
  }
  // The codes a problem can carry, from the one code table (decision server-error-code-table), so
  // the document lists exactly the codes the error mapping knows.
  const problemCode = (schemas.Problem as { properties?: Record<string, Json> } | undefined)?.properties
    ?.code;
  if (problemCode !== undefined) problemCode.description = problemCodeDescription(input.hostCodes);
  // A tag two plugins introduce is listed once (OpenAPI 3.1 §4.8.1: tag names must be unique).
  const tags = (input.tags ?? []).filter((tag, i, all) => all.findIndex((t) => t.name === tag.name) === i);
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: input.title,
      version: input.version,
      ...(input.description ? { description: input.description } : {}),
      license: input.license ?? { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: input.serverUrl ?? input.basePath }],
    ...(tags.length > 0 ? { tags } : {}),
    paths,
    ...(Object.keys(webhooks).length > 0 ? { webhooks } : {}),
    components: {
      // Only the schemas an operation uses: a query schema is spread into parameters, so its own
      // component would be listed but never referred to.
      schemas: usedSchemas([paths, webhooks], schemas),
      headers: COMPONENT_HEADERS,
      securitySchemes,
    },
  };
}
