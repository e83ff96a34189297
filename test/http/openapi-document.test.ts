import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import SwaggerParser from "@apidevtools/swagger-parser";
import { createBuiltInCaseSystem, openCaseSystemStore } from "@incasso/case-system";
import { issueApiKey } from "@incasso/core";
import { createApi, isKernelOptionError } from "@incasso/server";
import { EXAMPLE_WEBHOOK_EVENT, OPERATION_EXAMPLES } from "@incasso/server/internal";
import { responseValidator } from "@incasso/test-utils";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

const store = await openCaseSystemStore();
afterAll(() => store.close());

describe("the generated OpenAPI document", () => {
  const api = createApi({ store, caseSystem: createBuiltInCaseSystem({ store }) });
  const doc = api.openapi();

  it("documents the protected endpoints beside the public ones", () => {
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/creditors",
      "/healthz",
      "/openapi.json",
      "/orders",
      "/orders/{orderId}",
      "/orders/{orderId}/hold",
      "/orders/{orderId}/payments",
      "/orders/{orderId}/withdraw",
      "/ping",
      "/readyz",
      "/tools/rol-router",
      "/tools/wik",
    ]);
  });

  it("marks the payment report's body required, as the spec does, and the bodies of hold and withdraw optional", () => {
    // Spec POST /orders/{orderId}/payments: "Body required"; hold and withdraw: "Body optional".
    // The server reads an absent payment body as {} to answer 422 naming amount_cents (decision
    // orders-control-requests), which does not make the body optional in the contract.
    const body = (action: string) =>
      (doc.paths[`/orders/{orderId}/${action}`]?.post as { requestBody: { required: boolean } } | undefined)
        ?.requestBody.required;
    expect([body("payments"), body("hold"), body("withdraw")]).toEqual([true, false, false]);
  });

  it("cannot be made without a store or a case system, so no endpoint is left out unnoticed", () => {
    const without = (options: Parameters<typeof createApi>[0]) => {
      try {
        createApi(options);
      } catch (error) {
        return isKernelOptionError(error) ? { code: error.code, option: error.option } : error;
      }
      return "created";
    };
    expect(without(undefined)).toEqual({ code: "missing_option", option: "store" });
    expect(without({ store })).toEqual({ code: "missing_option", option: "caseSystem" });
    expect(without({ store, orders: false })).toBe("created");
    expect(without({ publicOnly: true })).toBe("created");
    expect(Object.keys(createApi({ publicOnly: true }).openapi().paths).sort()).toEqual([
      "/healthz",
      "/openapi.json",
      "/ping",
      "/readyz",
      "/tools/rol-router",
      "/tools/wik",
    ]);
  });

  it("is valid OpenAPI 3.1 according to an independent validator", async () => {
    const copy = structuredClone(doc);
    await expect(SwaggerParser.validate(copy as never)).resolves.toBeDefined();
  });

  it("lists every route of the route table with its operationId", () => {
    for (const route of api.routes) {
      const path = route.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
      const op = doc.paths[path]?.[route.method.toLowerCase()] as { operationId: string } | undefined;
      expect(op?.operationId, `${route.method} ${route.path}`).toBe(route.operationId);
    }
  });

  it("describes errors with the Problem schema and the server under the base path", () => {
    expect(doc.servers).toEqual([{ url: "/api/v1" }]);
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(["Problem", "PingResponse"]));
    const problem = doc.components.schemas.Problem as { required: string[] };
    expect(problem.required).toEqual(["type", "title", "status", "code", "detail"]);
  });

  it("describes the signed event POST under webhooks", () => {
    const hook = (
      doc as { webhooks?: Record<string, { post: { parameters: { name: string }[]; requestBody: unknown } }> }
    ).webhooks?.event?.post;
    expect(hook?.parameters.map((p) => p.name)).toEqual([
      "X-Service-Signature",
      "X-Service-Timestamp",
      "X-Service-Event",
    ]);
    expect(hook?.requestBody).toEqual({
      required: true,
      content: {
        "application/json": {
          schema: { $ref: "#/components/schemas/WebhookEvent" },
          examples: { event: { value: EXAMPLE_WEBHOOK_EVENT } },
        },
      },
    });
  });

  it("follows a configured base path", async () => {
    const other = createApi({ publicOnly: true, basePath: "/collections/v1/" });
    expect(other.basePath).toBe("/collections/v1");
    expect(other.openapi().servers).toEqual([{ url: "/collections/v1" }]);
    expect((await other.fetch(new Request("http://x/collections/v1/ping"))).status).toBe(200);
    expect((await other.fetch(new Request("http://x/api/v1/ping"))).status).toBe(404);
  });
});

type Media = { schema: unknown; examples?: Record<string, { value: unknown }> };
// The one named example of a media type.
const exampleOf = (media: Media | undefined) => Object.values(media?.examples ?? {})[0]?.value;
type Operation = {
  operationId: string;
  security?: unknown[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media>; headers?: Record<string, { $ref?: string }> }>;
};

function operations(doc: ReturnType<ReturnType<typeof createApi>["openapi"]>): [string, string, Operation][] {
  const out: [string, string, Operation][] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (method !== "servers") out.push([path, method, op as Operation]);
    }
  }
  return out;
}

describe("the OpenAPI document's examples, headers and lint", () => {
  const api = createApi({ store, caseSystem: createBuiltInCaseSystem({ store }) });
  const doc = api.openapi();
  const ops = operations(doc);

  it("has an example for every request body and for every response status with a body", () => {
    const missing: string[] = [];
    for (const [path, method, op] of ops) {
      for (const media of Object.values(op.requestBody?.content ?? {})) {
        if (exampleOf(media) === undefined) missing.push(`${method} ${path} request`);
      }
      for (const [status, response] of Object.entries(op.responses)) {
        if (!response.content) missing.push(`${method} ${path} ${status} has no body`);
        for (const media of Object.values(response.content ?? {})) {
          if (exampleOf(media) === undefined) missing.push(`${method} ${path} ${status}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(ops).toHaveLength(14);
  });

  it("has examples that match their schemas", () => {
    const check = responseValidator(doc);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addSchema({ $id: "doc", components: doc.components });
    for (const [path, method, op] of ops) {
      for (const [status, response] of Object.entries(op.responses)) {
        for (const media of Object.values(response.content ?? {})) {
          expect(
            () => check(path, method, Number(status), exampleOf(media)),
            `${method} ${path} ${status}`,
          ).not.toThrow();
        }
      }
      for (const media of Object.values(op.requestBody?.content ?? {})) {
        const schema = JSON.parse(
          JSON.stringify(media.schema).replaceAll('"#/components/', '"doc#/components/'),
        );
        const validate = ajv.compile(schema);
        expect(
          validate(exampleOf(media)),
          `${method} ${path} request: ${ajv.errorsText(validate.errors)}`,
        ).toBe(true);
      }
    }
  });

  it("shows the API's own answers: every request example gets the documented success status", async () => {
    const { key } = await issueApiKey(store, {
      organisation: "Examples BV",
      mode: "live",
      creditorManagement: true,
    });
    const post = async (path: string, body: unknown) => {
      const res = await api.fetch(
        new Request(`http://x/api/v1${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const order = await post("/orders", OPERATION_EXAMPLES.createOrder?.request);
    expect(order.status).toBe(201);
    const { id, created_at, case: kase, ...rest } = order.body;
    const {
      id: _id,
      created_at: _at,
      case: exampleCase,
      ...exampleRest
    } = (OPERATION_EXAMPLES.createOrder?.responses[201] ?? {}) as Record<string, unknown>;
    expect(rest).toEqual(exampleRest);
    expect(Object.keys(kase as object)).toEqual(Object.keys(exampleCase as object));
    expect([id, created_at].every((v) => typeof v === "string")).toBe(true);
    expect((await post("/creditors", OPERATION_EXAMPLES.createCreditor?.request)).status).toBe(201);
    for (const [operationId, action] of [
      ["holdOrder", "hold"],
      ["withdrawOrder", "withdraw"],
      ["reportPayment", "payments"],
    ] as const) {
      const res = await post(`/orders/${id}/${action}`, OPERATION_EXAMPLES[operationId]?.request);
      expect(res.status, operationId).toBe(202);
      const { id: _a, created_at: _b, ...answer } = res.body;
      const {
        id: _c,
        created_at: _d,
        ...example
      } = (OPERATION_EXAMPLES[operationId]?.responses[202] ?? {}) as Record<string, unknown>;
      expect({ ...answer, case: undefined }, operationId).toEqual({ ...example, case: undefined });
    }
    expect((await post("/tools/wik", OPERATION_EXAMPLES.calculateWik?.request)).status).toBe(200);
    expect((await post("/tools/rol-router", OPERATION_EXAMPLES.lookupRolRouter?.request)).status).toBe(200);
    // The problem examples of POST /orders are the answers to these requests.
    const problem = (status: number) =>
      exampleOf(
        (doc.paths["/orders"]?.post as Operation | undefined)?.responses[String(status)]?.content?.[
          "application/problem+json"
        ],
      );
    const unauthorized = await api.fetch(new Request("http://x/api/v1/orders", { method: "POST" }));
    expect(await unauthorized.json()).toEqual(problem(401));
    const unsupported = await Promise.resolve().then(() =>
      api.fetch(
        new Request("http://x/api/v1/orders", {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "text/plain" },
          body: "x",
        }),
      ),
    );
    expect(await unsupported.json()).toEqual(problem(415));
    const invalid = await post("/orders", {
      ...(OPERATION_EXAMPLES.createOrder?.request as object),
      invoices: [{ invoice_number: "F-1", invoice_date: "2026-09-01", amount_cents: 0 }],
    });
    expect(invalid.body).toEqual(problem(422));
    // And the 403 of the creditor endpoints is what a key without creditor management gets.
    const plain = await issueApiKey(store, { organisation: "Examples BV", mode: "live" });
    const refused = await api.fetch(
      new Request("http://x/api/v1/creditors", { headers: { authorization: `Bearer ${plain.key}` } }),
    );
    expect(await refused.json()).toEqual(
      exampleOf(
        (doc.paths["/creditors"]?.get as Operation | undefined)?.responses["403"]?.content?.[
          "application/problem+json"
        ],
      ),
    );
  });

  it("names X-Request-Id on every response and Retry-After on every 429 and 503", () => {
    for (const [path, method, op] of ops) {
      for (const [status, response] of Object.entries(op.responses)) {
        expect(response.headers?.["X-Request-Id"], `${method} ${path} ${status}`).toEqual({
          $ref: "#/components/headers/X-Request-Id",
        });
        if (status === "429" || status === "503") {
          expect(response.headers?.["Retry-After"], `${method} ${path} ${status}`).toEqual({
            $ref: "#/components/headers/Retry-After",
          });
        }
      }
    }
    expect(Object.keys(doc.components.headers ?? {})).toEqual(["X-Request-Id", "Retry-After"]);
  });

  it("has a licence, unique tags, and an operationId and an empty security list on the webhook", () => {
    expect((doc.info as { license?: unknown }).license).toEqual({ name: "MIT", identifier: "MIT" });
    const tags = (doc.tags as { name: string }[]).map((t) => t.name);
    expect(tags).toEqual(["service", "health", "tools", "creditors", "orders"]);
    const hook = (doc as { webhooks?: Record<string, { post: Operation }> }).webhooks?.event?.post;
    expect(hook?.operationId).toBe("receiveEvent");
    expect(hook?.security).toEqual([]);
    expect(Object.keys(doc.components.schemas)).not.toContain("ListCreditorsQuery");
  });

  it("passes `redocly lint` without errors or warnings", async () => {
    const dir = mkdtempSync(join(tmpdir(), "incasso-openapi-"));
    try {
      const file = join(dir, "openapi.json");
      writeFileSync(file, JSON.stringify(doc));
      const run = promisify(execFile);
      const bin = join(root, "node_modules", ".bin", "redocly");
      const result = await run(
        bin,
        ["lint", "--config", join(root, "redocly.yaml"), "--format", "json", file],
        {
          cwd: root,
          env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        },
      ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
      const report = JSON.parse(result.stdout.slice(result.stdout.indexOf("{"))) as {
        totals: { errors: number; warnings: number };
        problems: { ruleId: string; message: string }[];
      };
      expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
