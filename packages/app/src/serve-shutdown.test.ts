import type { ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { cliProcesses, newDataDir } from "@incasso/test-utils";
import { afterAll, afterEach, describe, expect, it } from "vitest";

const cli = cliProcesses();
const dirs: string[] = [];
const servers: Server[] = [];
afterEach(() => cli.killAll("SIGKILL"));
afterAll(() => {
  for (const s of servers) s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Starts `serve` and resolves with its API URL once it listens; collects everything it prints. */
function serve(args: string[]): Promise<{ proc: ChildProcess; url: string; output: () => string }> {
  const proc = cli.start(["serve", "--port", "0", "--host", "127.0.0.1", ...args]);
  let out = "";
  proc.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  proc.stderr?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    proc.stdout?.on("data", () => {
      const url = /incasso listening on (http:\/\/[^\s"]+)/.exec(out)?.[1];
      if (url && out.includes('"msg":"data: ')) resolve({ proc, url, output: () => out });
    });
    proc.on("exit", (code) => reject(new Error(`exited with ${code}: ${out}`)));
  });
}

const exited = (proc: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (proc.exitCode !== null) resolve(proc.exitCode);
    else proc.on("exit", (code) => resolve(code));
  });

/** A webhook receiver on 127.0.0.1 that answers 204 after `delayMs`; `hits` resolve as they arrive. */
async function slowReceiver(delayMs: number) {
  const hits: { body: string; answeredAt?: number }[] = [];
  let firstHit: (value: string) => void = () => {};
  const first = new Promise<string>((resolve) => {
    firstHit = resolve;
  });
  const server = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString();
    });
    req.on("end", () => {
      const hit: { body: string; answeredAt?: number } = { body };
      hits.push(hit);
      firstHit(body);
      setTimeout(() => {
        hit.answeredAt = Date.now();
        res.writeHead(204).end();
      }, delayMs);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, hits, first };
}

function order(reference: string, customerNumber: string) {
  return {
    type: "pre-incasso",
    reference,
    debtors: [
      {
        type: "business",
        company_name: "Voorbeeld B.V.",
        customer_number: customerNumber,
        address: { street: "Teststraat", house_number: "10", postal_code: "9999ZZ", city: "Testdorp" },
      },
    ],
    invoices: [
      { invoice_number: "F-1", invoice_date: "2026-09-01", payment_term_days: 14, amount_cents: 125000 },
    ],
  };
}

/**
 * POSTs a body over a raw socket in chunks, `pauseMs` apart, and resolves with the status line of
 * the answer; `sent` reports how many bytes are out.
 */
function slowPost(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
  pauseMs: number,
  chunk = 256 * 1024,
) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let written = 0;
  let answer = "";
  const response = new Promise<string>((resolve, reject) => {
    socket.on("data", (c: Buffer) => {
      answer += c.toString("latin1");
    });
    socket.on("end", () => resolve(answer));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
  socket.on("connect", async () => {
    const head = [
      `POST ${path} HTTP/1.1`,
      `Host: ${hostname}:${port}`,
      `Content-Length: ${body.byteLength}`,
      "Connection: close",
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      "",
      "",
    ].join("\r\n");
    socket.write(head);
    for (let at = 0; at < body.byteLength; at += chunk) {
      socket.write(body.subarray(at, at + chunk));
      written = Math.min(body.byteLength, at + chunk);
      await new Promise((r) => setTimeout(r, pauseMs));
    }
  });
  return { response, sent: () => written };
}

async function until<T>(check: () => T | undefined | false, what: string, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A live key of an organisation whose webhook endpoint is `hookUrl`, made through the running server. */
async function liveKeyWithHook(dir: string, hookUrl: string): Promise<string> {
  const created = await cli.run([
    "keys",
    "create",
    "--organisation",
    "Shutdown BV",
    "--mode",
    "live",
    "--json",
    "--data-dir",
    dir,
  ]);
  expect(created.code).toBe(0);
  // The endpoint and the letter details are independent of each other: set side by side.
  const [hook, details] = await Promise.all([
    cli.run(["webhooks", "set", "--organisation", "Shutdown BV", "--url", hookUrl, "--data-dir", dir]),
    // Without an IBAN no 14-day letter is made (issue 19); set through the server's operator endpoint.
    cli.run([
      "letter-details",
      "set",
      "--organisation",
      "Shutdown BV",
      "--iban",
      "NL91ABNA0417164300",
      "--data-dir",
      dir,
    ]),
  ]);
  expect(hook.code).toBe(0);
  expect(details.code).toBe(0);
  return (JSON.parse(created.out) as { key: string }).key;
}

/**
 * Places a pre-incasso order: its 14-day letter is made by the letter runner, and the letter's
 * correspondence.sent event is delivered to the organisation's endpoint.
 */
async function placeOrder(url: string, key: string): Promise<void> {
  const placed = await fetch(`${url}/orders`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      "idempotency-key": "shutdown-a",
    },
    body: JSON.stringify(order("R-A", "K-A")),
  });
  expect(placed.status).toBe(201);
}

/** The recorded attempts of an event, read by the CLI from the data directory. */
async function attemptsOf(dir: string, eventId: string): Promise<[number, string, number][]> {
  const attempts = await cli.run(["webhooks", "deliveries", "--event", eventId, "--json", "--data-dir", dir]);
  expect(attempts.code).toBe(0);
  return (JSON.parse(attempts.out) as { attempt: number; outcome: string; status_code: number }[]).map(
    (a) => [a.attempt, a.outcome, a.status_code],
  );
}

describe("incasso serve shuts down gracefully", () => {
  it("on SIGTERM finishes a slow multi-megabyte upload and a webhook attempt in flight, then exits 0", {
    timeout: 120_000,
  }, async () => {
    const dir = await newDataDir("incasso-shutdown-");
    dirs.push(dir);
    const receiver = await slowReceiver(1500);
    const { proc, url, output } = await serve([
      "--data-dir",
      dir,
      "--allow-private-webhook-targets",
      "--shutdown-timeout",
      "30",
    ]);
    const key = await liveKeyWithHook(dir, receiver.url);
    await placeOrder(url, key);

    // A second order of about 6 MB (whitespace is JSON too), sent in 256 KiB chunks 120 ms apart.
    const big = Buffer.from(
      JSON.stringify(order("R-B", "K-B")).replace("{", `{${" ".repeat(6 * 1024 * 1024)}`),
    );
    const upload = slowPost(
      url,
      `${new URL(url).pathname}/orders`,
      { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": "shutdown-b" },
      big,
      120,
    );

    // SIGTERM while the webhook attempt waits for the receiver and the upload is under way.
    const firstEvent = JSON.parse(await receiver.first) as { id: string; type: string };
    expect(firstEvent.type).toBe("correspondence.sent");
    await until(() => upload.sent() > 256 * 1024, "the upload to start");
    expect(upload.sent()).toBeLessThan(big.byteLength);
    expect(receiver.hits[0]?.answeredAt).toBeUndefined();
    const signalledAt = Date.now();
    proc.kill("SIGTERM");

    const answer = await upload.response;
    expect(answer.split("\r\n")[0]).toMatch(/^HTTP\/1\.1 201\b/);
    expect(answer).toMatch(/"id":"ord_[0-9a-f]{16}"/);
    expect(upload.sent()).toBe(big.byteLength);
    expect(await exited(proc)).toBe(0);
    // The process waited for the receiver's answer to the attempt in flight.
    expect(receiver.hits[0]?.answeredAt).toBeGreaterThan(signalledAt);
    expect(output()).toContain(
      "incasso: SIGTERM; finishing the requests in flight (up to 30 s), then stopping",
    );
    expect(output()).toContain("incasso: stopped");

    // The attempt in flight was recorded as delivered: no lease left to run out.
    expect(await attemptsOf(dir, firstEvent.id)).toEqual([[1, "delivered", 204]]);
    const deliveries = await cli.run(["webhooks", "deliveries", "--json", "--data-dir", dir]);
    const listed = (JSON.parse(deliveries.out) as { event_id: string; state: string }[]).find(
      (d) => d.event_id === firstEvent.id,
    );
    expect(listed?.state).toBe("delivered");
  });

  it("on SIGINT with no request in flight waits for the webhook attempt alone, records it, and exits 0", {
    timeout: 120_000,
  }, async () => {
    const dir = await newDataDir("incasso-shutdown-");
    dirs.push(dir);
    const receiver = await slowReceiver(2000);
    const { proc, url, output } = await serve(["--data-dir", dir, "--allow-private-webhook-targets"]);
    const key = await liveKeyWithHook(dir, receiver.url);
    await placeOrder(url, key);
    const event = JSON.parse(await receiver.first) as { id: string };
    const signalledAt = Date.now();
    proc.kill("SIGINT");
    expect(await exited(proc)).toBe(0);
    expect(receiver.hits[0]?.answeredAt).toBeGreaterThan(signalledAt);
    // The default limit is 30 seconds.
    expect(output()).toContain(
      "incasso: SIGINT; finishing the requests in flight (up to 30 s), then stopping",
    );
    expect(await attemptsOf(dir, event.id)).toEqual([[1, "delivered", 204]]);
  });

  it("cuts a request that outlasts --shutdown-timeout, and still exits 0", { timeout: 120_000 }, async () => {
    const dir = await newDataDir("incasso-shutdown-");
    dirs.push(dir);
    const { proc, url, output } = await serve([
      "--data-dir",
      dir,
      "--shutdown-timeout",
      "1",
      "--no-webhook-dispatcher",
    ]);
    // 60 KB (below the tool's 64 KiB limit) at 4 KB per second: far longer than the one second allowed.
    const body = Buffer.alloc(60_000, 0x20);
    const upload = slowPost(
      url,
      `${new URL(url).pathname}/tools/wik`,
      { "content-type": "application/json" },
      body,
      1000,
      4000,
    );
    await until(() => upload.sent() > 0, "the upload to start");
    proc.kill("SIGTERM");
    expect(await exited(proc)).toBe(0);
    expect(await upload.response).toBe("");
    expect(upload.sent()).toBeLessThan(body.byteLength);
    expect(output()).toContain("incasso: requests still running after 1 s; closing their connections");
  });

  it("refuses a malformed --shutdown-timeout and a wildcard for protected CORS origins before opening anything", async () => {
    // Three refusals that open nothing: run side by side.
    const [timeout, cors, origin] = await Promise.all([
      cli.run(["serve", "--shutdown-timeout", "soon", "--data-dir", "/nonexistent/incasso"]),
      cli.run(["serve", "--cors-protected-origins", "*", "--data-dir", "/nonexistent/incasso"]),
      cli.run(["serve", "--cors-origins", "https://tools.example/", "--data-dir", "/nonexistent/incasso"], {
        INCASSO_CORS_ORIGINS: "*",
      }),
    ]);
    // Usage errors exit 2 (decision cli-exit-codes).
    expect([timeout.code, timeout.err]).toEqual([
      2,
      "incasso: --shutdown-timeout must be a whole number of seconds, not soon\n",
    ]);
    expect([cors.code, cors.err]).toEqual([
      2,
      "incasso: --cors-protected-origins takes a list of origins, not *\n",
    ]);
    expect(origin.code).toBe(2);
    expect(origin.err).toContain('"https://tools.example/" is not an origin');
  });
});
