import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhook } from "@incasso/webhook-signing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverWebhook } from "./deliver-webhook.js";

interface Received {
  path: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

let server: Server;
let base: string;
const received: Received[] = [];
let hangs: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      if (req.url === "/ok") return res.writeHead(204).end();
      if (req.url === "/fail")
        return res.writeHead(503, { "content-type": "text/plain" }).end("down\nfor maintenance");
      if (req.url === "/redirect") return res.writeHead(302, { location: `${base}/ok` }).end();
      if (req.url === "/hang") {
        hangs.push(res);
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const r of hangs) r.destroy();
  hangs = [];
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const payload =
  '{"id":"evt_0123456789abcdef","object":"event","type":"ping","created_at":"2026-11-21T10:00:00.000Z","data":{"order_id":null,"case_number":null,"reference":null,"case_event":null}}';
const secret = "whsec_unit_test_secret_value";
const timestamp = 1_795_255_200;
const send = (path: string, extra: Partial<Parameters<typeof deliverWebhook>[0]> = {}) =>
  deliverWebhook({
    url: `${base}${path}`,
    secret,
    payload,
    eventType: "ping",
    timestamp,
    allowPrivateTargets: true,
    ...extra,
  });

describe("deliverWebhook", () => {
  it("POSTs the exact body with the three signed headers; a 2xx is delivered", async () => {
    const before = received.length;
    const result = await send("/ok");
    expect(result).toMatchObject({ outcome: "delivered", statusCode: 204, failure: null, error: null });
    const got = received[before] as Received;
    expect(got.body.toString("utf8")).toBe(payload);
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["x-service-event"]).toBe("ping");
    expect(got.headers["x-service-timestamp"]).toBe(String(timestamp));
    expect(got.headers["user-agent"]).toMatch(/^incasso-webhooks\//);
    const verified = verifyWebhook(got.body, got.headers, secret, { now: timestamp });
    expect(verified).toMatchObject({ timestamp, eventType: "ping", secretIndex: 0 });
  });

  it("reports another status as http_status with an excerpt of the answer", async () => {
    expect(await send("/fail")).toMatchObject({
      outcome: "failed",
      statusCode: 503,
      failure: "http_status",
      error: "http_status: HTTP 503: down for maintenance",
    });
  });

  it("does not follow a redirect: a 3xx is a failure and the new location is never called", async () => {
    const before = received.length;
    const result = await send("/redirect");
    expect(result).toMatchObject({ outcome: "failed", statusCode: 302, failure: "redirect_not_followed" });
    expect(result.error).toBe(`redirect_not_followed: HTTP 302 to ${base}/ok; redirects are not followed`);
    expect(received.slice(before).map((r) => r.path)).toEqual(["/redirect"]);
  });

  it("gives up after the time-out", async () => {
    const result = await send("/hang", { timeoutMs: 200 });
    expect(result).toMatchObject({ outcome: "failed", statusCode: null, failure: "timeout" });
    expect(result.error).toBe("timeout: no complete answer within 200 ms");
  });

  it("reports a refused connection", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await deliverWebhook({
      url: `http://127.0.0.1:${port}/`,
      secret,
      payload,
      eventType: "ping",
      timestamp,
      allowPrivateTargets: true,
    });
    expect(result.failure).toBe("connection_failed");
    expect(result.error).toContain("ECONNREFUSED");
  });

  it("refuses a loopback target unless private targets are allowed, without connecting", async () => {
    const before = received.length;
    const result = await send("/ok", { allowPrivateTargets: false });
    expect(result).toMatchObject({ outcome: "failed", statusCode: null, failure: "private_target" });
    expect(result.error).toBe(
      "private_target: 127.0.0.1 resolves to 127.0.0.1, a loopback (RFC 1122) address; allow private targets only for local development.",
    );
    expect(received.length).toBe(before);
  });

  it("refuses a host name when any address it resolves to is private", async () => {
    const result = await deliverWebhook({
      url: "https://hooks.client.example/incasso",
      secret,
      payload,
      eventType: "ping",
      timestamp,
      lookup: async () => [
        { address: "93.184.215.14", family: 4 },
        { address: "169.254.169.254", family: 4 },
      ],
    });
    expect(result.failure).toBe("private_target");
    expect(result.error).toContain(
      "hooks.client.example resolves to 169.254.169.254, a link-local (RFC 3927), cloud metadata address",
    );
  });

  it("connects to the address it checked, never resolving the name a second time (DNS rebinding)", async () => {
    let lookups = 0;
    // `.invalid` never resolves (RFC 6761), so any second, system lookup would fail with ENOTFOUND.
    const result = await deliverWebhook({
      url: "http://rebind.invalid:9/hook",
      secret,
      payload,
      eventType: "ping",
      timestamp,
      timeoutMs: 300,
      lookup: async () => {
        lookups++;
        return [{ address: "198.51.100.7", family: 4 }];
      },
    });
    expect(lookups).toBe(1);
    // Whatever answers at that address (nothing, or a network's transparent proxy), the name itself
    // was never resolved again: a second lookup would have ended in ENOTFOUND.
    expect(["timeout", "connection_failed", "http_status"]).toContain(result.failure);
    expect(result.error).not.toContain("ENOTFOUND");
    expect(result.error).not.toContain("EAI_AGAIN");
  });

  it("counts the host-name lookup in the time-out and stops it with the dispatcher", async () => {
    // A resolver that answers only when the test lets it: the attempt must end without it.
    let answer: () => void = () => undefined;
    let lookupDone = false;
    const slowLookup = () =>
      new Promise<{ address: string; family: number }[]>((resolve) => {
        answer = () => {
          lookupDone = true;
          resolve([{ address: "93.184.215.14", family: 4 }]);
        };
      });
    const attempt = {
      url: "https://slow-dns.client.example/hook",
      secret,
      payload,
      eventType: "ping",
      timestamp,
    };
    const late = await deliverWebhook({ ...attempt, timeoutMs: 50, lookup: slowLookup });
    expect([late.outcome, late.failure, late.error, lookupDone]).toEqual([
      "failed",
      "timeout",
      "timeout: the host name was not resolved within 50 ms",
      false,
    ]);
    answer();
    lookupDone = false;

    const controller = new AbortController();
    const stopping = deliverWebhook({
      ...attempt,
      timeoutMs: 60_000,
      lookup: slowLookup,
      signal: controller.signal,
    });
    controller.abort();
    const stopped = await stopping;
    expect([stopped.failure, stopped.error, lookupDone]).toEqual([
      "connection_failed",
      "connection_failed: the dispatcher stopped during the attempt",
      false,
    ]);
    answer();
    const before = await deliverWebhook({ ...attempt, lookup: slowLookup, signal: controller.signal });
    expect(before.failure).toBe("connection_failed");
  });

  it("reports a host that does not resolve as dns_failed", async () => {
    const result = await deliverWebhook({
      url: "https://nowhere.invalid/hook",
      secret,
      payload,
      eventType: "ping",
      timestamp,
      lookup: async () => {
        throw Object.assign(new Error("getaddrinfo ENOTFOUND nowhere.invalid"), { code: "ENOTFOUND" });
      },
    });
    expect(result).toMatchObject({
      failure: "dns_failed",
      error: "dns_failed: nowhere.invalid does not resolve (ENOTFOUND).",
    });
  });
});
