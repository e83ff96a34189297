import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "../api-error.js";
import { createApi } from "../create-api.js";
import { definePlugin, defineRoute, type RouteGuard } from "../plugin.js";
import { allowedMethods } from "./method-fallbacks.js";

function apiWith(guards: RouteGuard[], globalGuards: RouteGuard[] = []) {
  return createApi({
    publicOnly: true,
    guards: globalGuards,
    plugins: [
      definePlugin({
        name: "probe",
        routes: [
          defineRoute({
            method: "GET",
            path: "/probe",
            operationId: "probe",
            summary: "probe",
            auth: "none",
            responses: { 200: { description: "ok" } },
            guards,
            handle: () => ({ ok: true }),
          }),
        ],
      }),
    ],
  });
}

describe("the route pipeline", () => {
  it("runs the global guards before the route's own, then the handler", async () => {
    const seen: string[] = [];
    const api = apiWith([() => void seen.push("route")], [() => void seen.push("global")]);
    const response = await api.fetch(new Request("http://x/api/v1/probe"));
    expect(seen).toEqual(["global", "route"]);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it("waits for a guard that returns a promise, and keeps the guards' order", async () => {
    const seen: string[] = [];
    const api = apiWith([
      () => void seen.push("first"),
      async () => {
        await Promise.resolve();
        seen.push("second");
      },
      () => void seen.push("third"),
    ]);
    const response = await api.fetch(new Request("http://x/api/v1/probe"));
    expect(seen).toEqual(["first", "second", "third"]);
    expect(response.status).toBe(200);
  });

  it("answers a guard's refusal, thrown at once or later, as its problem", async () => {
    const refuse = () => {
      throw new ApiError({ code: "rate_limited", detail: "Slow down.", headers: { "Retry-After": "3" } });
    };
    for (const guard of [refuse, async () => refuse()]) {
      const response = await apiWith([guard]).fetch(new Request("http://x/api/v1/probe"));
      expect(response.status).toBe(429);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      expect(response.headers.get("retry-after")).toBe("3");
      expect(await response.json()).toMatchObject({ code: "rate_limited", detail: "Slow down." });
    }
  });
});

describe("a body the handler validates", () => {
  it("is read as JSON but not run through the documenting schema: it is parsed once", async () => {
    const seen: unknown[] = [];
    const api = createApi({
      publicOnly: true,
      plugins: [
        definePlugin({
          name: "once",
          routes: [
            defineRoute({
              method: "POST",
              path: "/once",
              operationId: "once",
              summary: "once",
              auth: "none",
              request: { body: z.object({ n: z.int() }), bodyValidatedBy: "handler" },
              responses: { 200: { description: "ok" } },
              handle: (ctx) => {
                seen.push(ctx.rawBody, ctx.body);
                return { ok: true };
              },
            }),
          ],
        }),
      ],
    });
    const response = await api.fetch(
      new Request("http://x/api/v1/once", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"n":"not a number"}',
      }),
    );
    expect(response.status).toBe(200);
    expect(seen).toEqual([{ n: "not a number" }, { n: "not a number" }]);
  });
});

describe("allowedMethods", () => {
  it("lists each path's methods, HEAD beside GET and OPTIONS last", () => {
    const routes = apiWith([]).routes.filter((r) => r.path === "/probe" || r.path === "/ping");
    expect([...allowedMethods(routes, (r) => `/api/v1${r.path}`)]).toEqual([
      ["/api/v1/ping", "GET, HEAD, OPTIONS"],
      ["/api/v1/probe", "GET, HEAD, OPTIONS"],
    ]);
  });
});
