import { fixtureApi, type RunningTransport, responseValidator, transports } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const api = fixtureApi();
const check = responseValidator(api.openapi());

async function problem(res: Response) {
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  return (await res.json()) as Record<string, unknown>;
}

describe.each(transports)("foundation over $name", (transport) => {
  let t: RunningTransport;
  beforeAll(async () => {
    t = await transport.start(api);
  });
  afterAll(() => t.close());

  it("GET /ping answers unauthenticated with the spec's shape", async () => {
    const res = await t.request("/ping");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
    const body = await res.json();
    expect(body).toEqual({
      status: "ok",
      time: "2026-11-21T10:00:00.000Z",
      authenticated: false,
      features: { creditor_management: false },
    });
    check("/ping", "get", 200, body);
  });

  it("HEAD /ping has the headers of GET and no body", async () => {
    const res = await t.request("/ping", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.text()).toBe("");
  });

  it("echoes a plain X-Request-Id and replaces an unsafe one", async () => {
    const ok = await t.request("/ping", { headers: { "x-request-id": "abc-123" } });
    expect(ok.headers.get("x-request-id")).toBe("abc-123");
    const bad = await t.request("/ping", { headers: { "x-request-id": "a b<c>" } });
    expect(bad.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it("every answer carries X-Request-Id and X-Content-Type-Options: nosniff", async () => {
    // docs/decisions/server-response-headers.md: answers, errors, OPTIONS and HEAD alike.
    const answers = [
      ["GET /ping", await t.request("/ping")],
      ["HEAD /ping", await t.request("/ping", { method: "HEAD" })],
      ["OPTIONS /ping", await t.request("/ping", { method: "OPTIONS" })],
      ["POST /ping", await t.request("/ping", { method: "POST", body: "{}" })],
      ["GET /nope", await t.request("/nope")],
      ["GET /ping%ZZ", await t.request("/ping%ZZ")],
    ] as const;
    expect(answers.map(([name, res]) => [name, res.status])).toEqual([
      ["GET /ping", 200],
      ["HEAD /ping", 200],
      ["OPTIONS /ping", 204],
      ["POST /ping", 405],
      ["GET /nope", 404],
      ["GET /ping%ZZ", 400],
    ]);
    for (const [name, res] of answers) {
      expect(res.headers.get("x-content-type-options"), name).toBe("nosniff");
      expect(res.headers.get("x-request-id"), name).toMatch(/^req_[0-9a-f]{32}$/);
      await res.arrayBuffer();
    }
  });

  it("unknown path → 404 not_found as problem+json", async () => {
    const res = await t.request("/nope/deeper");
    expect(res.status).toBe(404);
    const body = await problem(res);
    expect(body).toEqual({
      type: "https://incasso.dev/problems/not_found",
      title: "Not Found",
      status: 404,
      code: "not_found",
      detail: expect.stringContaining("/nope/deeper"),
    });
    check("/ping", "get", 429, body); // any documented problem response has the Problem schema
  });

  it("known path, wrong method → 405 method_not_allowed with Allow", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const res = await t.request("/ping", { method, body: method === "DELETE" ? null : "{}" });
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
      const body = await problem(res);
      expect(body.code).toBe("method_not_allowed");
      expect(body.status).toBe(405);
    }
  });

  it("OPTIONS lists the allowed methods", async () => {
    const res = await t.request("/openapi.json", { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  it("GET /openapi.json serves the generated OpenAPI 3.1 document", async () => {
    const res = await t.request("/openapi.json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/ping", "/openapi.json"]));
  });

  it("malformed percent-encoding → 400 malformed_url", async () => {
    const res = await t.request("/ping%ZZ");
    expect(res.status).toBe(400);
    expect((await problem(res)).code).toBe("malformed_url");
  });

  it("the NUL character (%00) in the path or the query → 400 malformed_url", async () => {
    for (const target of ["/ping%00", "/ping?x=%00"]) {
      const res = await t.request(target);
      expect(res.status, target).toBe(400);
      expect((await problem(res)).code).toBe("malformed_url");
    }
  });

  it("a very long path → 414 uri_too_long", async () => {
    const res = await t.request(`/${"a".repeat(9000)}`);
    expect(res.status).toBe(414);
    expect((await problem(res)).code).toBe("uri_too_long");
  });

  it("a long but acceptable path is a plain 404", async () => {
    const res = await t.request(`/${"é".repeat(500)}`);
    expect(res.status).toBe(404);
    expect((await problem(res)).code).toBe("not_found");
  });

  it("passes the raw body bytes through untouched", async () => {
    const raw = '{ "a" :  1,\n  "naam": "Ĳsselmeer café" }  ';
    const res = await t.request("/__test/echo", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: raw,
    });
    expect(res.status).toBe(200);
    const { createHash } = await import("node:crypto");
    expect(await res.json()).toMatchObject({
      length: Buffer.byteLength(raw),
      sha256: createHash("sha256").update(raw).digest("hex"),
      content_type: "application/json",
    });
  });
});
