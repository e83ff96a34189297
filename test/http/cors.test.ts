import { definePlugin, defineRoute, type IncassoApi } from "@incasso/server";
import { fixtureApi, type RunningTransport, transports } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// A protected route that needs no store: its preflight never reaches authentication.
const protectedPlugin = definePlugin({
  name: "test-protected",
  routes: [
    defineRoute({
      method: "GET",
      path: "/__test/protected",
      operationId: "testProtected",
      summary: "Test only: a protected route",
      auth: "required",
      responses: { 200: { description: "Never without a key." }, 401: { description: "No key." } },
      handle: () => ({ ok: true }),
    }),
  ],
});

const EXPOSE =
  "X-Request-Id, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Location, Idempotency-Replayed";

/** The CORS headers of a response, and Allow, by name. */
function corsHeaders(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (name.startsWith("access-control-") || name === "vary" || name === "allow") out[name] = value;
  });
  return out;
}

const preflight = (t: RunningTransport, path: string, origin: string, method: string) =>
  t.request(path, {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": method,
      "access-control-request-headers": "content-type",
    },
  });

function suite(name: string, api: IncassoApi, body: (get: () => RunningTransport) => void) {
  describe.each(transports)(`${name} over $name`, (transport) => {
    let t: RunningTransport;
    beforeAll(async () => {
      t = await transport.start(api);
    });
    afterAll(() => t.close());
    body(() => t);
  });
}

suite("CORS by default", fixtureApi({ plugins: [protectedPlugin] }), (get) => {
  it("answers a preflight of a public endpoint from any origin with 204 and the Access-Control-Allow-* headers", async () => {
    const res = await preflight(get(), "/tools/wik", "https://tools.example", "POST");
    expect(res.status).toBe(204);
    expect(corsHeaders(res)).toEqual({
      allow: "POST, OPTIONS",
      "access-control-allow-origin": "*",
      "access-control-allow-methods": "POST",
      "access-control-allow-headers": "Content-Type, X-Request-Id",
      "access-control-max-age": "600",
      vary: "Origin",
    });
    const ping = await preflight(get(), "/ping", "https://tools.example", "GET");
    expect(corsHeaders(ping)).toMatchObject({
      "access-control-allow-origin": "*",
      "access-control-allow-methods": "GET, HEAD",
    });
  });

  it("lets any origin read the public answers, and exposes the request id and rate-limit headers", async () => {
    for (const path of ["/ping", "/openapi.json"]) {
      const res = await get().request(path, { headers: { origin: "https://tools.example" } });
      expect(res.status, path).toBe(200);
      expect(corsHeaders(res), path).toEqual({
        "access-control-allow-origin": "*",
        "access-control-expose-headers": EXPOSE,
        vary: "Origin",
      });
      await res.arrayBuffer();
    }
    const wik = await get().request("/tools/wik", {
      method: "POST",
      headers: { origin: "https://tools.example", "content-type": "application/json" },
      body: "{",
    });
    expect(wik.status).toBe(400);
    expect(corsHeaders(wik)).toEqual({
      "access-control-allow-origin": "*",
      "access-control-expose-headers": EXPOSE,
      vary: "Origin",
    });
    await wik.arrayBuffer();
  });

  it("answers no cross-origin preflight of a protected endpoint positively, and lets no page read it", async () => {
    const res = await preflight(get(), "/__test/protected", "https://tools.example", "GET");
    expect(res.status).toBe(204);
    expect(corsHeaders(res)).toEqual({ allow: "GET, HEAD, OPTIONS", vary: "Origin" });
    const call = await get().request("/__test/protected", { headers: { origin: "https://tools.example" } });
    expect(call.status).toBe(401);
    expect(corsHeaders(call)).toEqual({ vary: "Origin" });
    await call.arrayBuffer();
  });

  it("keeps the plain OPTIONS answer (204 with Allow) for a request that is no preflight", async () => {
    const res = await get().request("/tools/wik", { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(corsHeaders(res)).toEqual({ allow: "POST, OPTIONS" });
    // A request without Origin gets no CORS headers.
    const ping = await get().request("/ping");
    expect(corsHeaders(ping)).toEqual({});
    await ping.arrayBuffer();
  });

  it("refuses a preflight for a method the path does not have", async () => {
    const res = await preflight(get(), "/tools/wik", "https://tools.example", "DELETE");
    expect(res.status).toBe(204);
    expect(corsHeaders(res)).toEqual({ allow: "POST, OPTIONS", vary: "Origin" });
  });
});

suite(
  "CORS with configured origins",
  fixtureApi({
    plugins: [protectedPlugin],
    cors: {
      origins: ["https://tools.example"],
      protectedOrigins: ["https://portal.example"],
      maxAgeSeconds: 60,
    },
  }),
  (get) => {
    it("allows only the listed origins on the public endpoints, echoing the origin", async () => {
      const ok = await get().request("/ping", { headers: { origin: "https://tools.example" } });
      expect(corsHeaders(ok)).toEqual({
        "access-control-allow-origin": "https://tools.example",
        "access-control-expose-headers": EXPOSE,
        vary: "Origin",
      });
      await ok.arrayBuffer();
      const other = await get().request("/ping", { headers: { origin: "https://other.example" } });
      expect(other.status).toBe(200);
      expect(corsHeaders(other)).toEqual({ vary: "Origin" });
      await other.arrayBuffer();
      const refused = await preflight(get(), "/tools/wik", "https://other.example", "POST");
      expect(corsHeaders(refused)).toEqual({ allow: "POST, OPTIONS", vary: "Origin" });
    });

    it("allows an operator's protected origin on the protected endpoints, with the key headers", async () => {
      const res = await preflight(get(), "/__test/protected", "https://portal.example", "GET");
      expect(res.status).toBe(204);
      expect(corsHeaders(res)).toEqual({
        allow: "GET, HEAD, OPTIONS",
        "access-control-allow-origin": "https://portal.example",
        "access-control-allow-methods": "GET, HEAD",
        "access-control-allow-headers": "Authorization, Content-Type, Idempotency-Key, X-Request-Id",
        "access-control-max-age": "60",
        vary: "Origin",
      });
      const call = await get().request("/__test/protected", {
        headers: { origin: "https://portal.example" },
      });
      expect(call.status).toBe(401);
      expect(corsHeaders(call)).toEqual({
        "access-control-allow-origin": "https://portal.example",
        "access-control-expose-headers": EXPOSE,
        vary: "Origin",
      });
      await call.arrayBuffer();
      // The public tools' origin is not one of them.
      const tools = await preflight(get(), "/__test/protected", "https://tools.example", "GET");
      expect(corsHeaders(tools)).toEqual({ allow: "GET, HEAD, OPTIONS", vary: "Origin" });
    });
  },
);
