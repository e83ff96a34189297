import { HttpRequest, InvocationContext } from "@azure/functions";
import { createApi, definePlugin, defineRoute } from "@incasso/server";
import { fixtureApi } from "@incasso/test-utils";
import { describe, expect, it } from "vitest";
import { createAzureFunctionsHandler, registerIncassoFunction } from "./azure-handler.js";

const context = () => new InvocationContext({ functionName: "incasso" });

describe("createAzureFunctionsHandler", () => {
  it("strips the Functions route prefix and serves the API path", async () => {
    const handler = createAzureFunctionsHandler(fixtureApi());
    const res = await handler(
      new HttpRequest({ url: "http://localhost:7071/api/ping", method: "GET" }),
      context(),
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(new TextDecoder().decode(res.body as Uint8Array))).toMatchObject({ status: "ok" });
  });

  it("honours a custom route prefix", async () => {
    const handler = createAzureFunctionsHandler(fixtureApi(), { routePrefix: "api/v1" });
    const ok = await handler(
      new HttpRequest({ url: "http://localhost/api/v1/ping", method: "GET" }),
      context(),
    );
    expect(ok.status).toBe(200);
    const wrong = await handler(
      new HttpRequest({ url: "http://localhost/api/ping", method: "GET" }),
      context(),
    );
    expect(wrong.status).toBe(404);
  });

  it("passes the body and the first X-Forwarded-For address through", async () => {
    const handler = createAzureFunctionsHandler(fixtureApi());
    const res = await handler(
      new HttpRequest({
        url: "http://localhost/api/__test/echo",
        method: "POST",
        headers: { "x-forwarded-for": "198.51.100.4:51234, 10.0.0.1", "content-type": "application/json" },
        body: { string: '{"a": 1}' },
      }),
      context(),
    );
    expect(JSON.parse(new TextDecoder().decode(res.body as Uint8Array))).toMatchObject({
      length: 8,
      client_ip: "198.51.100.4",
      content_type: "application/json",
    });
  });

  it("hands the API a Request at its own URL, over the host's method, headers, query and body", async () => {
    let seen: Record<string, unknown> = {};
    const api = createApi({
      publicOnly: true,
      plugins: [
        definePlugin({
          name: "probe",
          routes: [
            defineRoute({
              method: "POST",
              path: "/probe",
              operationId: "probe",
              summary: "What the route sees",
              auth: "none",
              responses: { 200: { description: "What the route saw." } },
              handle: async (ctx) => {
                const request = ctx.request;
                seen = {
                  url: request.url,
                  method: request.method,
                  header: request.headers.get("x-probe"),
                  isRequest: request instanceof Request,
                  aborted: request.signal.aborted,
                  text: await request.clone().text(),
                  query: ctx.url.search,
                };
                return { body: await request.text() };
              },
            }),
          ],
        }),
      ],
    });
    const handler = createAzureFunctionsHandler(api, { routePrefix: "/fn/" });
    const res = await handler(
      new HttpRequest({
        url: "https://app.example:8443/fn/probe?a=1&b=%20#frag",
        method: "POST",
        headers: { "x-probe": "yes" },
        body: { string: "hello" },
      }),
      context(),
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(new TextDecoder().decode(res.body as Uint8Array))).toEqual({ body: "hello" });
    expect(seen).toEqual({
      url: "https://app.example:8443/api/v1/probe?a=1&b=%20",
      method: "POST",
      header: "yes",
      isRequest: true,
      aborted: false,
      text: "hello",
      query: "?a=1&b=%20",
    });
    // A path outside the prefix is served as it is, below the base path: here a 404.
    const outside = await handler(
      new HttpRequest({ url: "http://localhost/other/ping", method: "GET" }),
      context(),
    );
    expect(outside.status).toBe(404);
    // The prefix alone is the base path's root.
    const root = await handler(new HttpRequest({ url: "http://localhost/fn", method: "GET" }), context());
    expect(root.status).toBe(404);
  });

  it("registers one anonymous catch-all trigger", () => {
    const calls: { name: string; route: string; methods: string[]; authLevel: string }[] = [];
    registerIncassoFunction({ http: (name, options) => calls.push({ name, ...options }) }, fixtureApi());
    expect(calls).toEqual([
      {
        name: "incasso",
        route: "{*path}",
        methods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
        authLevel: "anonymous",
        handler: expect.any(Function),
      },
    ]);
  });
});
