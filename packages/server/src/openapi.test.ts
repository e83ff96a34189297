import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildOpenApiDocument } from "./openapi.js";
import { problemExample } from "./openapi-examples.js";
import { defineRoute } from "./plugin.js";

const Thing = z.object({ n: z.int().min(1), tag: z.string().default("x") }).meta({ id: "Thing" });
const route = defineRoute({
  method: "POST",
  path: "/things/:id",
  operationId: "makeThing",
  summary: "Make a thing",
  auth: "required",
  request: {
    body: Thing,
    params: z.object({ id: z.string() }),
    query: z.object({ dry: z.enum(["true", "false"]).optional().describe("Only validate") }),
    headers: { "Idempotency-Key": { description: "Replay protection" } },
  },
  responses: { 201: { description: "Made", schema: Thing }, 422: { description: "Invalid" } },
  handle: () => ({}),
});

describe("buildOpenApiDocument", () => {
  const doc = buildOpenApiDocument({
    routes: [route],
    basePath: "/api/v1",
    title: "t",
    version: "1.2.3",
    webhooks: [
      {
        name: "event",
        summary: "Something happened",
        schema: z.object({ id: z.string() }).meta({ id: "Evt" }),
        headers: { "X-Service-Signature": { description: "HMAC" } },
      },
    ],
  });

  it("turns a route into an operation with parameters, body, responses and security", () => {
    const op = doc.paths["/things/{id}"]?.post as Record<string, unknown>;
    expect(op.operationId).toBe("makeThing");
    expect(op.security).toEqual([{ bearerAuth: [] }]);
    expect(op.parameters).toEqual([
      { name: "id", in: "path", required: true, schema: { type: "string" } },
      {
        name: "dry",
        in: "query",
        required: false,
        schema: { type: "string", enum: ["true", "false"] },
        description: "Only validate",
      },
      {
        name: "Idempotency-Key",
        in: "header",
        required: false,
        description: "Replay protection",
        schema: { type: "string" },
      },
    ]);
    expect(op.requestBody).toEqual({
      required: true,
      content: { "application/json": { schema: { $ref: "#/components/schemas/ThingInput" } } },
    });
    // A problem status without an example of its own gets the kernel's, and every answer names
    // X-Request-Id.
    expect((op.responses as Record<string, unknown>)["422"]).toEqual({
      description: "Invalid",
      content: {
        "application/problem+json": {
          schema: { $ref: "#/components/schemas/Problem" },
          examples: { validation_error: { value: problemExample("makeThing", 422) } },
        },
      },
      headers: { "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" } },
    });
    expect(problemExample("makeThing", 422)).toMatchObject({ status: 422, code: "validation_error" });
  });

  it("keeps the request and the response form of a schema whose defaults differ", () => {
    const schemas = doc.components.schemas as Record<string, { required?: string[] }>;
    expect(schemas.Thing?.required).toEqual(["n", "tag"]);
    expect(schemas.ThingInput?.required).toEqual(["n"]);
  });

  it("describes outgoing requests under webhooks", () => {
    expect((doc as Record<string, unknown>).webhooks).toEqual({
      event: {
        post: {
          operationId: "eventWebhook",
          security: [],
          summary: "Something happened",
          parameters: [
            {
              name: "X-Service-Signature",
              in: "header",
              required: true,
              description: "HMAC",
              schema: { type: "string" },
            },
          ],
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/Evt" } } },
          },
          responses: {
            "200": { description: "Any 2xx status within the time-out acknowledges the delivery." },
          },
        },
      },
    });
  });

  it("is valid OpenAPI 3.1", async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });
});

describe("component names", () => {
  it("give the plain name to the response form even when a request uses the schema first", () => {
    const first = defineRoute({
      method: "POST",
      path: "/a",
      operationId: "a",
      summary: "a",
      auth: "none",
      request: { body: Thing },
      responses: { 204: { description: "ok" } },
      handle: () => ({}),
    });
    const second = defineRoute({
      method: "GET",
      path: "/b",
      operationId: "b",
      summary: "b",
      auth: "none",
      responses: { 200: { description: "ok", schema: Thing } },
      handle: () => ({}),
    });
    const d = buildOpenApiDocument({ routes: [first, second], basePath: "/v1", title: "t", version: "1" });
    const schemas = d.components.schemas as Record<string, { required?: string[] }>;
    expect(schemas.Thing?.required).toEqual(["n", "tag"]);
    expect(schemas.ThingInput?.required).toEqual(["n"]);
    expect((d.paths["/a"]?.post as { requestBody: unknown } | undefined)?.requestBody).toEqual({
      required: true,
      content: { "application/json": { schema: { $ref: "#/components/schemas/ThingInput" } } },
    });
  });
});

describe("requestBody.required", () => {
  it("follows bodyOptional unless documentBodyRequired says otherwise", () => {
    const post = (path: string, request: Record<string, unknown>) =>
      defineRoute({
        method: "POST",
        path,
        operationId: path.slice(1),
        summary: path,
        auth: "none",
        request: { body: Thing, ...request },
        responses: { 202: { description: "ok" } },
        handle: () => ({}),
      });
    const d = buildOpenApiDocument({
      routes: [
        post("/plain", {}),
        post("/optional", { bodyOptional: true }),
        // Read when absent (422 naming the fields), yet required by the contract.
        post("/lenient", { bodyOptional: true, documentBodyRequired: true }),
      ],
      basePath: "/v1",
      title: "t",
      version: "1",
    });
    const required = (path: string) =>
      (d.paths[path]?.post as { requestBody: { required: boolean } } | undefined)?.requestBody.required;
    expect([required("/plain"), required("/optional"), required("/lenient")]).toEqual([true, false, true]);
  });
});
