import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { CompletedRequest } from "./completed-request.js";
import { createApi } from "./create-api.js";
import { definePlugin, defineRoute } from "./plugin.js";

const things = definePlugin({
  name: "t",
  routes: [
    defineRoute({
      method: "POST",
      path: "/things/:id",
      operationId: "makeThing",
      summary: "t",
      auth: "none",
      request: { body: z.object({ n: z.int() }) },
      responses: { 201: { description: "made" } },
      handle: async (ctx) => ({ id: ctx.params.id }),
    }),
  ],
});

function apiWithReports() {
  const reports: CompletedRequest[] = [];
  const silent = { info() {}, warn() {}, error() {} };
  const api = createApi({
    publicOnly: true,
    plugins: [things],
    logger: silent,
    onResponse: (r) => reports.push(r),
  });
  return { api, reports };
}

const shape = (r: CompletedRequest) => ({ ...r, durationMs: typeof r.durationMs });

describe("createApi onResponse", () => {
  it("reports each request once with its route pattern, never the raw path, and its request id", async () => {
    const { api, reports } = apiWithReports();
    const ping = await api.fetch(
      new Request("http://x/api/v1/ping", { headers: { "x-request-id": "abc-1" } }),
    );
    expect(ping.status).toBe(200);
    const made = await api.fetch(
      new Request("http://x/api/v1/things/t_42", {
        method: "POST",
        body: '{"n":1}',
        headers: { "content-type": "application/json" },
      }),
    );
    const missing = await api.fetch(new Request("http://x/api/v1/nowhere/t_42"));
    const wrongMethod = await api.fetch(new Request("http://x/api/v1/ping", { method: "DELETE" }));
    expect([made.status, missing.status, wrongMethod.status]).toEqual([200, 404, 405]);
    const base = { keyId: null, keyMode: null, replayed: false, orderCreated: null, durationMs: "number" };
    expect(reports.map(shape)).toEqual([
      { ...base, requestId: "abc-1", method: "GET", route: "/api/v1/ping", status: 200 },
      {
        ...base,
        requestId: made.headers.get("x-request-id"),
        method: "POST",
        route: "/api/v1/things/:id",
        status: 200,
      },
      { ...base, requestId: missing.headers.get("x-request-id"), method: "GET", route: null, status: 404 },
      {
        ...base,
        requestId: wrongMethod.headers.get("x-request-id"),
        method: "DELETE",
        route: "/api/v1/ping",
        status: 405,
      },
    ]);
    expect(reports.every((r) => r.durationMs >= 0)).toBe(true);
  });

  it("a hook that throws is logged and the response still sent", async () => {
    const errors: unknown[] = [];
    const api = createApi({
      publicOnly: true,
      logger: { info() {}, warn() {}, error: (m, f) => errors.push([m, f]) },
      onResponse: () => {
        throw new Error("hook broke");
      },
    });
    const res = await api.fetch(new Request("http://x/api/v1/ping"));
    expect(res.status).toBe(200);
    expect(errors).toEqual([["onResponse hook failed", { error: "Error: hook broke" }]]);
  });
});
