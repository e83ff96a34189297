import { fixtureApi } from "@incasso/test-utils";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { incassoFastify } from "./fastify-plugin.js";

describe("incassoFastify", () => {
  it("keeps the raw body bytes and the host's hooks, and leaves the host's JSON parser alone", async () => {
    const app = Fastify();
    const seen: string[] = [];
    app.addHook("onRequest", async (request) => {
      seen.push(`onRequest ${request.url}`);
    });
    app.addHook("onResponse", async (request, reply) => {
      seen.push(`onResponse ${request.url} ${reply.statusCode}`);
    });
    app.post("/host/json", async (request) => ({ parsed: request.body }));
    await app.register(incassoFastify, { api: fixtureApi(), prefix: "/api/v1" });

    const raw = '{  "x": [1, 2],\n "y": "ü" }';
    const res = await app.inject({
      method: "POST",
      url: "/api/v1/__test/echo",
      headers: { "content-type": "application/json" },
      payload: raw,
    });
    expect(res.statusCode).toBe(200);
    const { createHash } = await import("node:crypto");
    expect(res.json()).toMatchObject({
      length: Buffer.byteLength(raw),
      sha256: createHash("sha256").update(raw).digest("hex"),
    });
    expect(seen).toEqual(["onRequest /api/v1/__test/echo", "onResponse /api/v1/__test/echo 200"]);

    const host = await app.inject({ method: "POST", url: "/host/json", payload: { a: 1 } });
    expect(host.json()).toEqual({ parsed: { a: 1 } });
    await app.close();
  });

  it("answers a path without parameters through its static route as through the wildcard", async () => {
    const app = Fastify();
    app.addHook("onSend", async (_request, reply) => {
      reply.header("x-host-hook", "onSend");
    });
    await app.register(incassoFastify, { api: fixtureApi(), prefix: "/api/v1" });
    const headers = { "x-request-id": "static-1" };
    const ping = await app.inject({ method: "GET", url: "/api/v1/ping", headers });
    // A query does not change the route Fastify picks; the API reads the same path.
    const queried = await app.inject({ method: "GET", url: "/api/v1/ping?probe=1", headers });
    for (const res of [ping, queried]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers["x-host-hook"]).toBe("onSend");
      expect(res.headers["x-request-id"]).toBe("static-1");
      expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(res.json()).toMatchObject({ status: "ok", authenticated: false });
    }
    // HEAD stays with the wildcard route: no body and no Content-Length of 0 claimed for it.
    const head = await app.inject({ method: "HEAD", url: "/api/v1/ping" });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe("");
    expect(head.headers["content-length"]).not.toBe("0");
    const post = await app.inject({ method: "POST", url: "/api/v1/ping" });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe("GET, HEAD, OPTIONS");
    await app.close();
  });

  it("passes a body that a host preParsing hook replaced (decompression and the like) to the API", async () => {
    const { PassThrough } = await import("node:stream");
    const app = Fastify();
    app.addHook("preParsing", async (_request, _reply, payload) => {
      const replaced = new PassThrough();
      payload.pipe(replaced);
      return replaced;
    });
    await app.register(incassoFastify, { api: fixtureApi(), prefix: "/api/v1" });
    const raw = '{"via": "hook"}';
    const res = await app.inject({
      method: "POST",
      url: "/api/v1/__test/echo",
      headers: { "content-type": "application/json" },
      payload: raw,
    });
    const { createHash } = await import("node:crypto");
    expect(res.json()).toMatchObject({
      length: Buffer.byteLength(raw),
      sha256: createHash("sha256").update(raw).digest("hex"),
    });
    await app.close();
  });

  it("answers unknown methods and paths below its prefix with the API's problems", async () => {
    const app = Fastify();
    await app.register(incassoFastify, { api: fixtureApi(), prefix: "/api/v1" });
    const propfind = await app.inject({ method: "PROPFIND" as never, url: "/api/v1/ping" });
    expect(propfind.statusCode).toBe(405);
    expect(propfind.headers.allow).toBe("GET, HEAD, OPTIONS");
    expect(propfind.headers["content-type"]).toBe("application/problem+json");
    const missing = await app.inject({ method: "GET", url: "/api/v1" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: "not_found" });
    await app.close();
  });

  it("leaves a Content-Type Fastify cannot parse to the API: problem+json 415, and no complaint where no body is needed", async () => {
    const app = Fastify();
    await app.register(incassoFastify, { api: fixtureApi(), prefix: "/api/v1" });
    for (const contentType of ["", "application/json, text/plain"]) {
      const res = await app.inject({
        method: "POST",
        url: "/api/v1/tools/wik",
        headers: { "content-type": contentType },
        payload: '{"amount_cents":125000}',
      });
      expect({ contentType, status: res.statusCode, type: res.headers["content-type"] }).toEqual({
        contentType,
        status: 415,
        type: "application/problem+json",
      });
      expect(res.json()).toEqual({
        type: "https://incasso.dev/problems/unsupported_media_type",
        title: "Unsupported Media Type",
        status: 415,
        code: "unsupported_media_type",
        detail: expect.stringMatching(/^Content-Type must be application\/json/),
      });
    }
    // GET /ping reads no body: the odd header changes nothing.
    const ping = await app.inject({ method: "GET", url: "/api/v1/ping", headers: { "content-type": "" } });
    expect(ping.statusCode).toBe(200);
    expect(ping.json()).toMatchObject({ status: "ok", authenticated: false });
    await app.close();
  });

  it("answers a malformed URL below its prefix with the API's problem+json, without frameworkErrors, and leaves other paths to Fastify", async () => {
    const { request: httpRequest } = await import("node:http");
    const app = Fastify();
    const seen: string[] = [];
    app.addHook("onRequest", async (request) => {
      seen.push(request.url);
    });
    await app.register(incassoFastify, { api: fixtureApi(), prefix: "/api/v1" });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = app.server.address() as { port: number };
    // fetch would normalise the path; node:http sends it as written.
    const raw = (path: string) =>
      new Promise<{ status: number; type: string | undefined; body: string; requestId: string | undefined }>(
        (resolve, reject) => {
          const req = httpRequest({ host: "127.0.0.1", port, path, method: "GET" }, (res) => {
            let body = "";
            res.on("data", (chunk: Buffer) => {
              body += chunk.toString();
            });
            res.on("end", () =>
              resolve({
                status: res.statusCode ?? 0,
                type: res.headers["content-type"],
                body,
                requestId: res.headers["x-request-id"] as string | undefined,
              }),
            );
          });
          req.on("error", reject);
          req.end();
        },
      );
    try {
      const bad = await raw("/api/v1/orders/%E0%A4%A");
      expect(bad.status).toBe(400);
      expect(bad.type).toBe("application/problem+json");
      expect(JSON.parse(bad.body)).toMatchObject({ status: 400, code: "malformed_url" });
      expect(bad.requestId).toMatch(/^req_[0-9a-f]{32}$/);
      // Outside the prefix the host's own framework answers, as before.
      const hostPath = await raw("/elsewhere/%zz");
      expect(hostPath.status).toBe(400);
      expect(hostPath.type).toBe("application/json");
      expect(JSON.parse(hostPath.body)).toMatchObject({ code: "FST_ERR_BAD_URL" });
      // Well-formed requests still go through Fastify and its hooks.
      const ping = await raw("/api/v1/ping");
      expect(ping.status).toBe(200);
      expect(seen).toEqual(["/api/v1/ping"]);
    } finally {
      await app.close();
    }
  });
});
