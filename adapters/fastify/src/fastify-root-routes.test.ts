import { definePlugin, defineRoute } from "@incasso/server";
import { fixtureApi } from "@incasso/test-utils";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { incassoFastifyRootRoutes } from "./fastify-root-routes.js";

// A root page answered on two methods, as the console's login page is (GET shows the form, POST
// logs in): Fastify refuses a second registration of one path.
const twoMethodsAtOnePath = definePlugin({
  name: "test-root-page",
  routes: (["GET", "POST"] as const).map((method) =>
    defineRoute({
      method,
      path: "/page/login",
      root: true,
      openapi: false,
      operationId: `rootPage${method}`,
      summary: "A root page",
      auth: "none",
      responses: { 200: { description: "The page." } },
      handle: () => new Response(`${method} page`, { headers: { "content-type": "text/plain" } }),
    }),
  ),
});

describe("incassoFastifyRootRoutes", () => {
  it("registers a root path with several methods once, and each method reaches its route", async () => {
    const app = Fastify();
    await app.register(incassoFastifyRootRoutes, { api: fixtureApi({ plugins: [twoMethodsAtOnePath] }) });
    const get = await app.inject({ method: "GET", url: "/page/login" });
    const post = await app.inject({ method: "POST", url: "/page/login" });
    const health = await app.inject({ method: "GET", url: "/healthz" });
    expect([get.statusCode, get.body]).toEqual([200, "GET page"]);
    expect([post.statusCode, post.body]).toEqual([200, "POST page"]);
    expect([health.statusCode, health.json()]).toEqual([200, { status: "ok" }]);
    await app.close();
  });
});
