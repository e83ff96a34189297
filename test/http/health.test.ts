import type { ReadinessReport } from "@incasso/server";
import { fixtureApi, type RunningTransport, responseValidator, transports } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let report: ReadinessReport = {
  ready: true,
  checks: { database: "ok" },
  details: { outbox_oldest_due_seconds: 0 },
};
const api = fixtureApi({ health: { readiness: async () => report } });
const check = responseValidator(api.openapi());

describe.each(transports)("health probes over $name", (transport) => {
  let t: RunningTransport;
  beforeAll(async () => {
    t = await transport.start(api);
  });
  afterAll(() => t.close());

  it("are not below the API's mount: the versioned API has no /healthz", async () => {
    const res = await t.request("/healthz");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    await res.arrayBuffer();
  });

  it("GET /healthz at the host's root answers 200 { status: ok }, uncached", async (ctx) => {
    if (!t.requestRoot)
      return ctx.skip("this host serves nothing at its root (decision server-health-endpoints)");
    const res = await t.requestRoot("/healthz");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
    const body = await res.json();
    expect(body).toEqual({ status: "ok" });
    check("/healthz", "get", 200, body);
  });

  it("GET /readyz at the host's root is 200 when ready and 503 problem+json with Retry-After when not", async (ctx) => {
    if (!t.requestRoot)
      return ctx.skip("this host serves nothing at its root (decision server-health-endpoints)");
    report = { ready: true, checks: { database: "ok" }, details: { outbox_oldest_due_seconds: 0 } };
    const ok = await t.requestRoot("/readyz");
    expect(ok.status).toBe(200);
    const okBody = await ok.json();
    expect(okBody).toEqual({
      status: "ready",
      checks: { database: "ok" },
      details: { outbox_oldest_due_seconds: 0 },
    });
    check("/readyz", "get", 200, okBody);

    report = { ready: false, checks: { database: "failing" }, details: { outbox_oldest_due_seconds: null } };
    const down = await t.requestRoot("/readyz");
    expect(down.status).toBe(503);
    expect(down.headers.get("content-type")).toBe("application/problem+json");
    expect(down.headers.get("retry-after")).toBe("5");
    expect(down.headers.get("cache-control")).toBe("no-store");
    const downBody = await down.json();
    expect(downBody).toEqual({
      type: "https://incasso.dev/problems/not_ready",
      title: "Service Unavailable",
      status: 503,
      code: "not_ready",
      detail: "Not ready: database failing.",
      checks: { database: "failing" },
      details: { outbox_oldest_due_seconds: null },
    });
    check("/readyz", "get", 503, downBody);
    report = { ready: true, checks: { database: "ok" }, details: { outbox_oldest_due_seconds: 0 } };
  });

  it("HEAD /healthz has GET's headers and no body; POST is 405 with Allow", async (ctx) => {
    if (!t.requestRoot)
      return ctx.skip("this host serves nothing at its root (decision server-health-endpoints)");
    const head = await t.requestRoot("/healthz", { method: "HEAD" });
    expect([head.status, head.headers.get("content-type"), await head.text()]).toEqual([
      200,
      "application/json; charset=utf-8",
      "",
    ]);
    const post = await t.requestRoot("/healthz", { method: "POST" });
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD, OPTIONS"]);
    await post.arrayBuffer();
  });
});
