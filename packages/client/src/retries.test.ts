import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIncassoClient } from "./create-incasso-client.js";
import { isIncassoApiError, isIncassoConnectionError } from "./errors.js";
import { type DropProxy, startDropProxy } from "./internal/testing/drop-proxy.js";
import { orderBody } from "./internal/testing/order-bodies.js";
import { type RunningServer, startServer } from "./internal/testing/start-server.js";
import type { ResponseMeta } from "./response-meta.js";

// Over real HTTP: the reference server with rate windows of 2 s (so a 429 is waited out in a test),
// and a proxy in front of it that cuts the answer to the first POST /orders.
let server: RunningServer;
let proxy: DropProxy;
let holdProxy: DropProxy;
beforeAll(async () => {
  server = await startServer({ rateWindowSeconds: 2 });
  proxy = await startDropProxy(server.port, (line) => line.startsWith("POST /api/v1/orders "));
  holdProxy = await startDropProxy(server.port, (line) =>
    /^POST \/api\/v1\/orders\/[^/ ]+\/hold /.test(line),
  );
});
afterAll(async () => {
  await proxy?.close();
  await holdProxy?.close();
  await server?.close();
});

const fast = { baseDelayMs: 20, maxDelayMs: 100 };

describe("over HTTP", () => {
  it("a retry after a lost answer returns the order the server already stored, not a second one", async () => {
    const seen: ResponseMeta[] = [];
    const client = createIncassoClient({
      baseUrl: `http://127.0.0.1:${proxy.port}/api/v1`,
      apiKey: server.keys.live,
      retries: fast,
      onResponse: (m) => seen.push(m),
    });
    const order = await client.orders.create(orderBody("L-1"));
    // The first answer was written by the server and cut by the proxy.
    expect(proxy.dropped).toHaveLength(1);
    expect(proxy.dropped[0]).toMatch(/^HTTP\/1\.1 201 /);
    const lostId = /"id":"(ord_[0-9a-f]{16})"/.exec(proxy.dropped[0] ?? "")?.[1];
    expect(order.id).toBe(lostId);
    expect(order.$response.status).toBe(201);
    expect(order.$response.replayed).toBe(true);
    expect(order.$response.attempts).toBeGreaterThanOrEqual(2);
    // Only answers that arrived are reported: at most a 409 idempotency_in_progress before the replay.
    expect(seen.at(-1)?.status).toBe(201);
    expect(seen.slice(0, -1).every((m) => m.status === 409)).toBe(true);
    expect(await server.count("SELECT count(*) AS n FROM orders WHERE reference = $1", ["R-L-1"])).toBe(1);
    expect(await server.count("SELECT count(*) AS n FROM cases")).toBe(1);
  });

  it("a retry after a lost answer to a hold returns the stored answer, and the case has one task", async () => {
    const order = await createIncassoClient({ baseUrl: server.url, apiKey: server.keys.live }).orders.create(
      orderBody("L-2"),
    );
    const client = createIncassoClient({
      baseUrl: `http://127.0.0.1:${holdProxy.port}/api/v1`,
      apiKey: server.keys.live,
      retries: fast,
    });
    const hold = await client.orders.hold(order.id, { reason: "Regeling" });
    expect(holdProxy.dropped).toHaveLength(1);
    expect(holdProxy.dropped[0]).toMatch(/^HTTP\/1\.1 202 /);
    expect(hold).toMatchObject({ id: order.id, action: "hold", status: "requested" });
    expect(hold.$response.status).toBe(202);
    expect(hold.$response.replayed).toBe(true);
    expect(hold.$response.attempts).toBeGreaterThanOrEqual(2);
    expect(await server.count("SELECT count(*) AS n FROM case_tasks WHERE order_id = $1", [order.id])).toBe(
      1,
    );
    expect(
      await server.count("SELECT count(*) AS n FROM order_actions WHERE order_id = $1", [order.id]),
    ).toBe(1);
  });

  // The two orders are sent together, so both reach the rate limit within its 2 s window however
  // slow the machine is: one is placed, the other gets 429 and is placed after Retry-After.
  it("a 429 is waited out for Retry-After and the order is placed with the same key", async () => {
    const seen: ResponseMeta[] = [];
    const client = createIncassoClient({
      baseUrl: server.url,
      apiKey: server.keys.slow, // one POST /orders per rate window
      retries: fast,
      onResponse: (m) => seen.push(m),
    });
    const orders = await Promise.all([
      client.orders.create(orderBody("S-1")),
      client.orders.create(orderBody("S-2")),
    ]);
    expect(orders.map((o) => o.$response.status)).toEqual([201, 201]);
    expect(orders.map((o) => o.$response.attempts).sort()).toEqual([1, 2]);
    const retried = orders.find((o) => o.$response.attempts === 2);
    expect(seen.map((m) => m.status).sort()).toEqual([201, 201, 429]);
    const limited = seen.find((m) => m.status === 429);
    expect(limited?.rateLimit).toEqual({ limit: 1, remaining: 0, reset: expect.any(Number) });
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(limited?.headers.get("retry-after"))).toBeLessThanOrEqual(2);
    expect(limited?.idempotencyKey).toBe(retried?.$response.idempotencyKey);
    expect(new Set(orders.map((o) => o.id)).size).toBe(2);
    expect(await server.count("SELECT count(*) AS n FROM orders WHERE reference IN ('R-S-1', 'R-S-2')")).toBe(
      2,
    );
  });

  it("with retries off the 429 is thrown with its Retry-After", async () => {
    const key = await server.issueKey("Client Once", { perMinute: 1 });
    const client = createIncassoClient({ baseUrl: server.url, apiKey: key, retries: 0 });
    const results = await Promise.allSettled([
      client.orders.create(orderBody("O-1")),
      client.orders.create(orderBody("O-2")),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const error = results.find((r) => r.status === "rejected")?.reason;
    expect(isIncassoApiError(error)).toBe(true);
    expect([error.status, error.code]).toEqual([429, "rate_limited"]);
    expect(error.retryAfter).toBeGreaterThanOrEqual(1);
    expect(error.response.rateLimit).toEqual({ limit: 1, remaining: 0, reset: error.retryAfter });
  });
});

// The other failure paths with a stub fetch: each scripted answer is a status and body, or "cut"
// for a network error.
type Scripted = "cut" | { status: number; body?: unknown; headers?: Record<string, string> };
function stubFetch(script: Scripted[]) {
  const requests: { url: string; init: RequestInit }[] = [];
  const fetch = async (url: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    requests.push({ url: String(url), init });
    const next = script.shift();
    if (next === undefined) throw new Error("stub fetch: no scripted answer left");
    if (next === "cut") throw new TypeError("fetch failed");
    const problem = next.status >= 400;
    return new Response(next.body === undefined ? null : JSON.stringify(next.body), {
      status: next.status,
      headers: {
        "content-type": problem ? "application/problem+json" : "application/json",
        "x-request-id": `req-${requests.length}`,
        ...next.headers,
      },
    });
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}
const problem = (status: number, code: string) => ({
  type: "about:blank",
  title: "t",
  status,
  code,
  detail: "d",
});
const created = { status: 201, body: { id: "ord_0123456789abcdef", object: "order" } };
const stubClient = (fetch: typeof globalThis.fetch, retries: object = fast, timeoutMs?: number) =>
  createIncassoClient({
    baseUrl: "http://incasso.test/api/v1/",
    apiKey: "svc_live_x",
    fetch,
    retries,
    ...(timeoutMs ? { timeoutMs } : {}),
  });
const headerOf = (init: RequestInit, name: string) => (init.headers as Record<string, string>)[name];

describe("retry rules", () => {
  it("orders.create retries a cut connection, 502 and 503 with the same key and the same bytes", async () => {
    const stub = stubFetch([
      "cut",
      { status: 502, body: problem(502, "upstream_error") },
      { status: 503 },
      created,
    ]);
    const order = await stubClient(stub.fetch).orders.create(orderBody("R-1"), { idempotencyKey: "k-1" });
    expect(order.id).toBe("ord_0123456789abcdef");
    expect(order.$response.attempts).toBe(4);
    expect(stub.requests.map((r) => r.url)).toEqual(Array(4).fill("http://incasso.test/api/v1/orders"));
    expect(stub.requests.map((r) => headerOf(r.init, "idempotency-key"))).toEqual([
      "k-1",
      "k-1",
      "k-1",
      "k-1",
    ]);
    expect(new Set(stub.requests.map((r) => r.init.body)).size).toBe(1);
    expect(headerOf(stub.requests[0]?.init ?? {}, "authorization")).toBe("Bearer svc_live_x");
  });

  it("retries 409 idempotency_in_progress after its Retry-After, but not idempotency_conflict", async () => {
    const inProgress = {
      status: 409,
      body: problem(409, "idempotency_in_progress"),
      headers: { "retry-after": "0" },
    };
    const stub = stubFetch([inProgress, created]);
    expect((await stubClient(stub.fetch).orders.create(orderBody("R-2"))).$response.attempts).toBe(2);
    const conflict = stubFetch([{ status: 409, body: problem(409, "idempotency_conflict") }]);
    const error = await stubClient(conflict.fetch)
      .orders.create(orderBody("R-2"))
      .catch((e) => e);
    expect([error.code, error.response.attempts, conflict.requests.length]).toEqual([
      "idempotency_conflict",
      1,
      1,
    ]);
  });

  it("does not retry 501, nor a 4xx", async () => {
    for (const status of [501, 400, 422]) {
      const stub = stubFetch([{ status, body: problem(status, `code_${status}`) }]);
      const error = await stubClient(stub.fetch)
        .orders.create(orderBody("R-3"))
        .catch((e) => e);
      expect([error.status, error.code, stub.requests.length]).toEqual([status, `code_${status}`, 1]);
    }
  });

  it("gives up after the allowed retries with IncassoConnectionError carrying the key", async () => {
    const stub = stubFetch(["cut", "cut", "cut"]);
    const error = await stubClient(stub.fetch, { ...fast, max: 2 })
      .orders.create(orderBody("R-4"), { idempotencyKey: "k-4" })
      .catch((e) => e);
    expect(isIncassoConnectionError(error)).toBe(true);
    expect([error.code, error.attempts, error.idempotencyKey]).toEqual(["network_error", 3, "k-4"]);
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it("hold, withdraw and reportPayment send the Idempotency-Key passed, the same on every retry of a cut, a 502 and a 409 in progress", async () => {
    const inProgress = {
      status: 409,
      body: problem(409, "idempotency_in_progress"),
      headers: { "retry-after": "0" },
    };
    const accepted = { status: 202, body: { object: "order_action" } };
    const calls = [
      (c: ReturnType<typeof stubClient>) =>
        c.orders.hold("ord_0123456789abcdef", { reason: "Regeling" }, { idempotencyKey: "h-1" }),
      (c: ReturnType<typeof stubClient>) =>
        c.orders.withdraw("ord_0123456789abcdef", undefined, { idempotencyKey: "h-1" }),
      (c: ReturnType<typeof stubClient>) =>
        c.orders.reportPayment("ord_0123456789abcdef", { amount_cents: 100 }, { idempotencyKey: "h-1" }),
    ];
    const paths = ["hold", "withdraw", "payments"];
    for (const [i, call] of calls.entries()) {
      const stub = stubFetch([
        "cut",
        { status: 502, body: problem(502, "upstream_error") },
        inProgress,
        accepted,
      ]);
      const action = await call(stubClient(stub.fetch));
      expect([action.object, action.$response.attempts, action.$response.idempotencyKey]).toEqual([
        "order_action",
        4,
        "h-1",
      ]);
      expect(stub.requests.map((r) => r.url)).toEqual(
        Array(4).fill(`http://incasso.test/api/v1/orders/ord_0123456789abcdef/${paths[i]}`),
      );
      expect(stub.requests.map((r) => headerOf(r.init, "idempotency-key"))).toEqual(Array(4).fill("h-1"));
      expect(new Set(stub.requests.map((r) => r.init.body)).size).toBe(1);
    }
  });

  it("a control request without a key gets a fresh UUID per call; idempotency_conflict is not retried", async () => {
    const stub = stubFetch([
      { status: 202, body: { object: "order_action" } },
      { status: 409, body: problem(409, "idempotency_conflict") },
    ]);
    const client = stubClient(stub.fetch);
    const action = await client.orders.hold("ord_0123456789abcdef");
    const error = await client.orders.hold("ord_0123456789abcdef").catch((e) => e);
    expect(error.code).toBe("idempotency_conflict");
    const keys = stub.requests.map((r) => headerOf(r.init, "idempotency-key"));
    for (const key of keys)
      expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[0]).not.toBe(keys[1]);
    expect(action.$response.idempotencyKey).toBe(keys[0]);
    expect(stub.requests.length).toBe(2);
    expect(stub.requests[0]?.init.body).toBe("{}");
  });

  it("reads retry a cut and a 503, without an Idempotency-Key", async () => {
    const stub = stubFetch(["cut", { status: 503 }, { status: 200, body: { object: "list", data: [] } }]);
    const page = await stubClient(stub.fetch).orders.list({ customer_number: "K 1/2", limit: 5 });
    expect(page.$response.attempts).toBe(3);
    expect(stub.requests[0]?.url).toBe("http://incasso.test/api/v1/orders?customer_number=K+1%2F2&limit=5");
    expect(headerOf(stub.requests[0]?.init ?? {}, "idempotency-key")).toBeUndefined();
  });

  it("throws a 429 at once when Retry-After is longer than maxRetryAfterSeconds", async () => {
    const stub = stubFetch([
      { status: 429, body: problem(429, "rate_limited"), headers: { "retry-after": "3600" } },
    ]);
    const error = await stubClient(stub.fetch)
      .orders.create(orderBody("R-5"))
      .catch((e) => e);
    expect([error.code, error.retryAfter, stub.requests.length]).toEqual(["rate_limited", 3600, 1]);
  });

  it("an answer without a problem body is unexpected_response, with its status", async () => {
    const stub = stubFetch([{ status: 404 }]);
    const error = await stubClient(stub.fetch)
      .orders.get("ord_0123456789abcdef")
      .catch((e) => e);
    expect([error.status, error.code, error.requestId, error.errors]).toEqual([
      404,
      "unexpected_response",
      "req-1",
      [],
    ]);
  });
});

describe("time-outs and abort", () => {
  // A fetch that never answers, but honours its signal as fetch does.
  const hanging = (count: { n: number }): typeof globalThis.fetch =>
    ((_url: string, init: RequestInit) => {
      count.n++;
      return new Promise((_resolve, reject) => {
        init.signal?.addEventListener("abort", () => reject(init.signal?.reason), { once: true });
      });
    }) as typeof globalThis.fetch;

  it("an attempt without an answer within timeoutMs is a timeout, retried", async () => {
    const count = { n: 0 };
    const error = await stubClient(hanging(count), { ...fast, max: 1 }, 30)
      .orders.create(orderBody("T-1"))
      .catch((e) => e);
    expect(isIncassoConnectionError(error)).toBe(true);
    expect([error.code, error.attempts, count.n]).toEqual(["timeout", 2, 2]);
  });

  it("the caller's signal stops an attempt with its own reason", async () => {
    const count = { n: 0 };
    const controller = new AbortController();
    const call = stubClient(hanging(count)).orders.create(orderBody("T-2"), { signal: controller.signal });
    const reason = new Error("caller gave up");
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(count.n).toBe(1);
  });

  it("the caller's signal stops the wait between attempts", async () => {
    const stub = stubFetch([{ status: 503 }, created]);
    const controller = new AbortController();
    const client = stubClient(stub.fetch, { baseDelayMs: 60_000, maxDelayMs: 60_000 });
    const call = client.orders.create(orderBody("T-3"), { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort(new Error("stop waiting"));
    await expect(call).rejects.toThrow("stop waiting");
    expect(stub.requests).toHaveLength(1);
  });

  it("an already aborted signal sends nothing", async () => {
    const stub = stubFetch([created]);
    const call = stubClient(stub.fetch).ping({ signal: AbortSignal.abort(new Error("never")) });
    await expect(call).rejects.toThrow("never");
    expect(stub.requests).toHaveLength(0);
  });
});

describe("options", () => {
  it("refuses a base URL that is not absolute http(s), and bad numbers", () => {
    expect(() => createIncassoClient({ baseUrl: "/api/v1" })).toThrow(TypeError);
    expect(() => createIncassoClient({ baseUrl: "http://x/api/v1", timeoutMs: 0 })).toThrow(RangeError);
    expect(() => createIncassoClient({ baseUrl: "http://x/api/v1", retries: -1 })).toThrow(RangeError);
  });

  it("an exception in onResponse reaches the caller and is not taken for a lost answer", async () => {
    const stub = stubFetch([created, created]);
    const client = createIncassoClient({
      baseUrl: "http://incasso.test/api/v1",
      fetch: stub.fetch,
      retries: fast,
      onResponse: () => {
        throw new Error("hook failed");
      },
    });
    await expect(client.orders.create(orderBody("H-1"))).rejects.toThrow("hook failed");
    expect(stub.requests).toHaveLength(1);
  });

  it("sends no key to the public tools", async () => {
    const stub = stubFetch([{ status: 200, body: { object: "wik_calculation" } }]);
    await stubClient(stub.fetch).tools.wik({ amount_cents: 100 });
    expect(headerOf(stub.requests[0]?.init ?? {}, "authorization")).toBeUndefined();
  });
});
