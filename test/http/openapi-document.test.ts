import SwaggerParser from "@apidevtools/swagger-parser";
import { createBuiltInCaseSystem, openCaseSystemStore } from "@incasso/case-system";
import { createApi, isKernelOptionError } from "@incasso/server";
import { afterAll, describe, expect, it } from "vitest";

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
      content: { "application/json": { schema: { $ref: "#/components/schemas/WebhookEvent" } } },
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
