import { HttpRequest, InvocationContext } from "@azure/functions";
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
