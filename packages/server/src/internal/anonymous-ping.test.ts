import type { IncomingMessage } from "node:http";
import { NodeRequest } from "srvx/node";
import { describe, expect, it } from "vitest";
import type { CompletedRequest } from "../completed-request.js";
import { createApi } from "../create-api.js";
import { responseParts } from "../response-parts.js";
import { anonymousPing } from "./anonymous-ping.js";

const NOW = new Date("2026-11-25T12:00:00.000Z");
const BODY =
  '{"status":"ok","time":"2026-11-25T12:00:00.000Z","authenticated":false,"features":{"creditor_management":false}}';

// A node request as srvx wraps it on the reference server: method, url, headers, no socket.
function nodeRequest(url: string, headers: Record<string, string> = {}, method = "GET"): Request {
  const req = { headers: { host: "localhost", ...headers }, rawHeaders: [], method, url };
  return new NodeRequest({ req: req as unknown as IncomingMessage }) as unknown as Request;
}

describe("anonymous ping", () => {
  const ping = anonymousPing({ path: "/api/v1/ping", cors: true, now: () => NOW });

  it("answers GET /ping without a key with the route's status, headers and body", async () => {
    for (const request of [
      new Request("http://localhost/api/v1/ping", { headers: { "x-request-id": "probe-1" } }),
      nodeRequest("/api/v1/ping", { "x-request-id": "probe-1" }),
    ]) {
      const facts = {};
      const response = ping(request, facts) as Response;
      expect(response.status).toBe(200);
      expect(responseParts(response)).toEqual({
        status: 200,
        headers: [
          ["content-type", "application/json; charset=utf-8"],
          ["x-request-id", "probe-1"],
          ["x-content-type-options", "nosniff"],
        ],
        body: BODY,
      });
      expect(response.headers.get("x-request-id")).toBe("probe-1");
      expect(await response.text()).toBe(BODY);
      expect(facts).toEqual({ incassoRequestId: "probe-1", incassoRoute: "/api/v1/ping" });
    }
    const fresh = ping(
      new Request("http://localhost/api/v1/ping", { headers: { "x-request-id": "a b" } }),
      {},
    );
    expect(fresh?.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it("tells the system time without a clock of the API's, and a new time once it moves on", async () => {
    const system = anonymousPing({ path: "/api/v1/ping", cors: true });
    const timeOf = async () =>
      JSON.parse(await (system(new Request("http://localhost/api/v1/ping"), {}) as Response).text())
        .time as string;
    const before = Date.now();
    const first = await timeOf();
    expect(Date.parse(first)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(first)).toBeLessThanOrEqual(Date.now());
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await timeOf();
    expect(Date.parse(second)).toBeGreaterThan(Date.parse(first));
    expect(new Date(Date.parse(second)).toISOString()).toBe(second);
  });

  it("leaves every other request to the router", () => {
    const web = (url: string, init?: RequestInit) => new Request(url, init);
    const left: Request[] = [
      web("http://localhost/api/v1/ping", { method: "HEAD" }),
      web("http://localhost/api/v1/ping", { method: "POST", body: "{}" }),
      web("http://localhost/api/v1/ping/"),
      web("http://localhost/api/v1/pings"),
      web("http://localhost/api/v1/Ping"),
      web("http://localhost/api/v2/ping"),
      web("http://localhost/x/api/v1/ping"),
      web("http://localhost/api/v1/ping?verbose=1"),
      web("http://localhost/api/v1/ping#top"),
      web("http://localhost/api/v1/ping", { headers: { authorization: "Bearer k" } }),
      web("http://localhost/api/v1/ping", { headers: { origin: "https://app.example" } }),
      web("http://localhost/api/v1/ping", { headers: { "content-length": "2" } }),
      web("http://localhost/api/v1/ping", { headers: { "transfer-encoding": "chunked" } }),
      nodeRequest("/api/v1/ping", {}, "HEAD"),
      nodeRequest("/api/v1/ping?x"),
      nodeRequest("/api/v1/ping", { authorization: "Bearer k" }),
      nodeRequest("/api/v1/ping", { origin: "https://app.example" }),
      nodeRequest("/api/v1/ping", { "content-length": "5" }),
      nodeRequest("/api/v1/ping", { "transfer-encoding": "chunked" }),
    ];
    for (const request of left) expect(ping(request, {}), `${request.method} ${request.url}`).toBeUndefined();
    // Only the CORS decision needs the Origin header.
    const noCors = anonymousPing({ path: "/api/v1/ping", cors: false, now: () => NOW });
    expect(
      noCors(web("http://localhost/api/v1/ping", { headers: { origin: "https://a.example" } }), {})?.status,
    ).toBe(200);
  });

  it("tells the exact path apart from one hidden in the authority", () => {
    // Strings a Request cannot hold, as a hand-made Request-like object could: left to the router.
    for (const url of [
      "http://a?/api/v1/ping",
      "http://a#/api/v1/ping",
      "http://u@h/api/v1/ping",
      "/api/v1/ping",
    ]) {
      expect(ping({ method: "GET", url, headers: new Headers() } as Request, {}), url).toBeUndefined();
    }
  });
});

describe("GET /ping through the API", () => {
  it("gives the same answer before the router as through it", async () => {
    const api = createApi({ publicOnly: true, now: () => NOW });
    const headers = { "x-request-id": "same-1" };
    const fast = await api.fetch(new Request("http://localhost/api/v1/ping", { headers }));
    // A query takes the router's way to the same route.
    const routed = await api.fetch(new Request("http://localhost/api/v1/ping?x=1", { headers }));
    expect(responseParts(fast)).toEqual(responseParts(routed));
    expect(await fast.text()).toBe(BODY);
  });

  it("reports the answer to the completion hook with its route and request id", async () => {
    const seen: CompletedRequest[] = [];
    const api = createApi({ publicOnly: true, now: () => NOW, onResponse: (r) => seen.push(r) });
    await api.fetch(new Request("http://localhost/api/v1/ping", { headers: { "x-request-id": "hook-1" } }));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      requestId: "hook-1",
      method: "GET",
      route: "/api/v1/ping",
      status: 200,
      keyId: null,
      keyMode: null,
      replayed: false,
      orderCreated: null,
    });
  });

  it("still runs global guards on GET /ping, and follows the base path", async () => {
    let guarded = 0;
    const api = createApi({
      publicOnly: true,
      basePath: "/v9",
      guards: [
        () => {
          guarded++;
        },
      ],
    });
    const response = await api.fetch(new Request("http://localhost/v9/ping"));
    expect(response.status).toBe(200);
    expect(guarded).toBe(1);
    const plain = createApi({ publicOnly: true, basePath: "/v9" });
    expect((await plain.fetch(new Request("http://localhost/v9/ping"))).status).toBe(200);
    expect((await plain.fetch(new Request("http://localhost/api/v1/ping"))).status).toBe(404);
  });
});
