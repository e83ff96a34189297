import type { ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { cliProcesses, newDataDir } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Issue 17, items 2 and 3: the logs and the metrics of a real `incasso serve` process, after a
// whole API flow (decisions operations-logs and operations-metrics).
const cli = cliProcesses();
let dir = "";
// Every test here may use it: made once, with its cluster initialised.
beforeAll(async () => {
  dir = await newDataDir("incasso-logs-");
});
let receiver: Server | undefined;
afterAll(() => {
  cli.killAll("SIGKILL");
  receiver?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const today = new Date().toISOString().slice(0, 10);
const order = {
  type: "pre-incasso",
  reference: "LOG-1",
  debtors: [
    {
      type: "individual",
      first_name: "Jan",
      last_name: "Jansen",
      customer_number: "LOG-K1",
      address: { street: "Teststraat", house_number: "2", postal_code: "9999 ZZ", city: "Testdorp" },
    },
  ],
  invoices: [{ invoice_number: "LOG-1-F1", invoice_date: today, due_date: today, amount_cents: 100_000 }],
};
// A key of the right shape that was never issued, and a secret this process knows.
const BAD_KEY = "svc_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";
const OPENAI_KEY = "sk-logs-test-0123456789abcdefghij";

async function json<T>(args: string[]): Promise<T> {
  const result = await cli.run([...args, "--json", "--data-dir", dir]);
  expect(result.err).toBe("");
  return JSON.parse(result.out) as T;
}

/** Starts serve and resolves once its last start line (`data: …`) is written. */
function serve(): Promise<{ proc: ChildProcess; output: () => string }> {
  const proc = cli.start(
    ["serve", "--port", "0", "--data-dir", dir, "--allow-private-webhook-targets", "--metrics-port", "0"],
    // The key switches the OpenAI title writer on (serve-openai.test.ts); its calls go to a closed
    // port on loopback here, fail at once and fall back to the template, and the key is still in
    // no line.
    {
      OPENAI_API_KEY: OPENAI_KEY,
      INCASSO_OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
      INCASSO_LOG_LEVEL: "info",
    },
  );
  let out = "";
  const collect = (chunk: Buffer) => {
    out += chunk.toString();
  };
  proc.stdout?.on("data", collect);
  proc.stderr?.on("data", collect);
  return new Promise((resolve, reject) => {
    proc.stdout?.on("data", () => {
      if (out.includes('"msg":"data: ')) resolve({ proc, output: () => out });
    });
    proc.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

/** The samples of a Prometheus text exposition: `name{labels}` → value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

/** The samples of one metric, without its `le` buckets. */
function series(all: Map<string, number>, name: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of all) {
    if (key === name || key.startsWith(`${name}{`)) out[key.slice(name.length)] = value;
  }
  return out;
}

describe("incasso serve: logs and metrics", () => {
  it("logs one JSON line per request with exactly its fields, never a key or secret, and counts it all in /metrics", {
    timeout: 150_000,
  }, async () => {
    let hits = 0;
    receiver = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        hits += 1;
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver?.listen(0, "127.0.0.1", resolve));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    // Keys through the operations, before the server runs: no first key is shown then.
    const main = await json<{ id: string; key: string }>([
      "keys",
      "create",
      "--organisation",
      "Logs BV",
      "--mode",
      "test",
      "--creditor-management",
    ]);
    const limited = await json<{ id: string; key: string }>([
      "keys",
      "create",
      "--organisation",
      "Logs BV",
      "--mode",
      "test",
      "--per-minute",
      "1",
    ]);
    const { proc, output } = await serve();
    const start = output()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const api = String(start[0]?.url);
    const metricsUrl = String(start.find((e) => typeof e.metricsUrl === "string")?.metricsUrl);
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(metricsUrl).port).not.toBe(new URL(api).port);

    // The webhook endpoint with its secret, through the running server's operator endpoint.
    const endpoint = await json<{ secret: string }>([
      "webhooks",
      "set",
      "--organisation",
      "Logs BV",
      "--url",
      hookUrl,
    ]);
    expect(endpoint.secret).toMatch(/^whsec_/);

    const auth = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });
    const sent: { id: string | null; status: number }[] = [];
    const call = async (path: string, init: RequestInit = {}) => {
      const res = await fetch(`${api}${path}`, init);
      sent.push({ id: res.headers.get("x-request-id"), status: res.status });
      return res;
    };
    const creditor = await call("/creditors", {
      method: "POST",
      headers: { ...auth(main.key), "idempotency-key": "cred-1" },
      body: JSON.stringify({ reference: "CRED-LOG", name: "Logs Schuldeiser B.V." }),
    });
    const orderInit = {
      method: "POST",
      headers: { ...auth(main.key), "idempotency-key": "order-log-1" },
      body: JSON.stringify(order),
    };
    const created = await call("/orders", orderInit);
    const { id: orderId } = (await created.json()) as { id: string };
    const replayed = await call("/orders", orderInit);
    const read = await call(`/orders/${orderId}`, { headers: auth(main.key) });
    const badKey = await call("/orders", { headers: auth(BAD_KEY) });
    const first = await call("/orders", { method: "POST", headers: auth(limited.key), body: "{}" });
    const refused = await call("/orders", { method: "POST", headers: auth(limited.key), body: "{}" });
    const missing = await call(`/nowhere/${orderId}`);
    expect(sent.map((s) => s.status)).toEqual([201, 201, 201, 200, 401, 422, 429, 404]);
    expect(replayed.headers.get("idempotency-replayed")).toBe("true");
    expect(
      [creditor, read, badKey, first, refused, missing].every((r) => r.headers.has("x-request-id")),
    ).toBe(true);

    // A delivery attempt for the metrics: the ping, sent at once.
    const ping = await cli.run(["webhooks", "ping", "--organisation", "Logs BV", "--data-dir", dir]);
    expect(ping.code).toBe(0);
    expect(hits).toBe(1);

    // The metrics are not on the API's port.
    const onApiPort = await fetch(new URL("/metrics", api));
    sent.push({ id: onApiPort.headers.get("x-request-id"), status: onApiPort.status });
    expect(onApiPort.status).toBe(404);
    const scraped = await fetch(metricsUrl);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const metrics = samples(await scraped.text());

    const route = (method: string, path: string, status: number) =>
      `{method="${method}",route="${path}",status="${status}"}`;
    const requests = {
      [route("POST", "/api/v1/creditors", 201)]: 1,
      [route("POST", "/api/v1/orders", 201)]: 2,
      [route("GET", "/api/v1/orders/:orderId", 200)]: 1,
      [route("GET", "/api/v1/orders", 401)]: 1,
      [route("POST", "/api/v1/orders", 422)]: 1,
      [route("POST", "/api/v1/orders", 429)]: 1,
      [route("GET", "unmatched", 404)]: 2,
    };
    expect(series(metrics, "incasso_http_requests_total")).toEqual(requests);
    expect(series(metrics, "incasso_http_request_duration_seconds_count")).toEqual(requests);
    expect(series(metrics, "incasso_rate_limit_refusals_total")).toEqual({ '{route="/api/v1/orders"}': 1 });
    expect(series(metrics, "incasso_idempotent_replays_total")).toEqual({ '{route="/api/v1/orders"}': 1 });
    expect(series(metrics, "incasso_orders_created_total")).toEqual({
      '{type="pre-incasso",mode="test"}': 1,
    });
    expect(series(metrics, "incasso_webhook_delivery_attempts_total")).toEqual({
      '{outcome="delivered"}': 1,
    });
    expect(series(metrics, "incasso_letter_job_attempts_total")).toEqual({});
    // The order had no PDF attachment, so no document check ran (incasso-metrics.test.ts counts one).
    expect(series(metrics, "incasso_document_checks_total")).toEqual({});
    expect(series(metrics, "incasso_outbox_due_events")).toEqual({ "": 0 });
    expect(series(metrics, "incasso_outbox_oldest_due_age_seconds")).toEqual({ "": 0 });
    expect(Object.keys(series(metrics, "nodejs_eventloop_lag_seconds"))).toEqual([""]);

    proc.kill("SIGTERM");
    await new Promise((resolve) => proc.once("exit", resolve));
    const lines = output().trim().split("\n");
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const base = { level: "info", time: expect.any(String), pid: proc.pid, msg: "request" };
    const line = (i: number, method: string, path: string | null, keyId?: string) => ({
      ...base,
      requestId: sent[i]?.id,
      method,
      route: path,
      status: sent[i]?.status,
      durationMs: expect.any(Number),
      ...(keyId ? { keyId } : {}),
    });
    expect(entries.filter((e) => e.msg === "request")).toEqual([
      line(0, "POST", "/api/v1/creditors", main.id),
      line(1, "POST", "/api/v1/orders", main.id),
      line(2, "POST", "/api/v1/orders", main.id),
      line(3, "GET", "/api/v1/orders/:orderId", main.id),
      line(4, "GET", "/api/v1/orders"),
      line(5, "POST", "/api/v1/orders", limited.id),
      line(6, "POST", "/api/v1/orders", limited.id),
      line(7, "GET", null),
      line(8, "GET", null),
    ]);
    expect(entries.find((e) => e.msg === "webhook delivered")).toEqual({
      level: "info",
      time: expect.any(String),
      pid: proc.pid,
      eventId: expect.stringMatching(/^evt_/),
      type: "ping",
      attempt: 1,
      statusCode: 204,
      durationMs: expect.any(Number),
      msg: "webhook delivered",
    });
    expect(entries.at(-1)?.msg).toBe("incasso: stopped");
    // No key, secret or credential in any line, not even the refused key.
    for (const text of lines) {
      for (const secret of [main.key, limited.key, BAD_KEY, endpoint.secret, OPENAI_KEY, "Bearer svc_"]) {
        expect(text).not.toContain(secret);
      }
      expect(text).not.toMatch(/svc_(live|test)_|whsec_/);
    }
  });
});
