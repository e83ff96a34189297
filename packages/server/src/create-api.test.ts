import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ApiError } from "./api-error.js";
import { createApi } from "./create-api.js";
import { definePlugin, defineRoute } from "./plugin.js";

const echoTyped = definePlugin({
  name: "t",
  routes: [
    defineRoute({
      method: "POST",
      path: "/things/:id",
      operationId: "makeThing",
      summary: "t",
      auth: "none",
      request: {
        body: z.object({ n: z.int().min(1) }),
        params: z.object({ id: z.string().regex(/^t_\d+$/) }),
        query: z.object({ dry: z.enum(["true", "false"]).optional() }),
      },
      responses: { 201: { description: "made" } },
      guards: [
        (ctx) => {
          ctx.responseHeaders.set("RateLimit-Limit", "30");
        },
      ],
      handle: (ctx) => ({ id: ctx.params.id, n: ctx.body.n, dry: ctx.query.dry ?? null }),
    }),
    defineRoute({
      method: "GET",
      path: "/boom",
      operationId: "boom",
      summary: "t",
      auth: "none",
      responses: { 200: { description: "never" } },
      handle: () => {
        throw new Error("secret detail");
      },
    }),
    defineRoute({
      method: "GET",
      path: "/teapot",
      operationId: "teapot",
      summary: "t",
      auth: "none",
      responses: { 200: { description: "never" } },
      handle: () => {
        throw new ApiError({ status: 409, code: "busy", detail: "later", headers: { "Retry-After": "2" } });
      },
    }),
  ],
});

const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
const api = createApi({ publicOnly: true, plugins: [echoTyped], logger });
const post = (path: string, body: string) =>
  api.fetch(
    new Request(`http://x/api/v1${path}`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json" },
    }),
  );

describe("createApi", () => {
  it("validates params, query and body before the handler and adds guard headers", async () => {
    const res = await post("/things/t_1?dry=true", '{"n":2}');
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-limit")).toBe("30");
    expect(await res.json()).toEqual({ id: "t_1", n: 2, dry: "true" });
  });

  it("reports every invalid part as 422 with field paths, guard headers included", async () => {
    const res = await post("/things/t_1?dry=maybe", '{"n":0}');
    expect(res.status).toBe(422);
    expect(res.headers.get("ratelimit-limit")).toBe("30");
    const body = (await res.json()) as { errors: { field: string }[] };
    expect(body.errors.map((e) => e.field)).toEqual(["dry"]);
    const res2 = await post("/things/t_1", '{"n":0}');
    expect(((await res2.json()) as { errors: { field: string; code: string }[] }).errors).toEqual([
      { field: "n", code: "too_small", message: expect.any(String) },
    ]);
  });

  it("turns an unexpected error into 500 internal_error and logs it", async () => {
    const res = await api.fetch(new Request("http://x/api/v1/boom"));
    expect(res.status).toBe(500);
    expect(JSON.stringify(await res.json())).not.toContain("secret");
    expect(logger.error).toHaveBeenCalledWith(
      "unhandled error",
      expect.objectContaining({ path: "/api/v1/boom" }),
    );
  });

  it("sends an ApiError's own headers", async () => {
    const res = await api.fetch(new Request("http://x/api/v1/teapot"));
    expect([res.status, res.headers.get("retry-after")]).toEqual([409, "2"]);
  });

  it("refuses two plugins declaring the same route", () => {
    expect(() => createApi({ publicOnly: true, plugins: [echoTyped, echoTyped] })).toThrow(
      "Two plugins declare POST /things/:id.",
    );
  });
});
