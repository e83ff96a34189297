import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { isApiError } from "../api-error.js";
import { createApi } from "../create-api.js";
import { readBodyBytes } from "../json-body.js";
import { definePlugin, defineRoute } from "../plugin.js";
import type { ConnectionLimits } from "./connection-limits.js";
import { createNodeServer } from "./node-server.js";

interface Exchange {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** ms from the first byte sent to the connection's close. */
  closedAfterMs: number;
}

let servers: Server[] = [];
let sockets: Socket[] = [];

afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets = [];
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  servers = [];
});

async function start(limits: ConnectionLimits): Promise<number> {
  const server = createNodeServer(createApi({ publicOnly: true }), { limits });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

function parse(data: string, closedAfterMs: number): Exchange {
  const [head = "", ...rest] = data.split("\r\n\r\n");
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(":");
    headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
  }
  return { status: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n"), closedAfterMs };
}

/**
 * Opens a connection, sends `head` at once and then `trickle` one byte every `everyMs` until the
 * server closes the connection; resolves with what came back.
 */
function exchange(port: number, head: string, trickle = "", everyMs = 100): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    sockets.push(socket);
    const started = Date.now();
    let data = "";
    let at = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => {
      data += chunk;
    });
    // A reset after the answer arrived is how a cut connection may end; the answer still counts.
    socket.on("error", (error) => (data ? undefined : reject(error)));
    socket.on("close", () => {
      clearInterval(timer);
      resolve(parse(data, Date.now() - started));
    });
    socket.write(head);
    if (trickle) {
      timer = setInterval(() => {
        if (at < trickle.length && socket.writable) socket.write(trickle.charAt(at++));
      }, everyMs);
    }
  });
}

const WIK_BODY = JSON.stringify({ amount_cents: 100_000 });

describe("createNodeServer: slow clients and the connection cap", () => {
  it("a header sent at 10 bytes/s is cut after the header time-out with 408 request_timeout", async () => {
    const port = await start({ headersTimeoutMs: 400, requestTimeoutMs: 5_000 });
    const res = await exchange(
      port,
      "GET /api/v1/ping HTTP/1.1\r\nHost: x\r\n",
      "X-Slow: abcdefghijklmnopqrstuvwxyz\r\n",
    );
    expect(res.status).toBe(408);
    expect(res.headers["content-type"]).toBe("application/problem+json");
    expect(res.headers.connection).toBe("close");
    expect(JSON.parse(res.body)).toMatchObject({
      status: 408,
      code: "request_timeout",
      title: "Request Timeout",
    });
    expect(res.closedAfterMs).toBeGreaterThanOrEqual(400);
    expect(res.closedAfterMs).toBeLessThan(2_500);
  });

  it("a body sent at 10 bytes/s is cut after the grace period with 408, its request id echoed", async () => {
    const port = await start({ minBodyBytesPerSecond: 1_000, bodyGraceMs: 300 });
    const head =
      "POST /api/v1/tools/wik HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
      `X-Request-Id: slow-body-1\r\nContent-Length: ${WIK_BODY.length}\r\n\r\n`;
    const res = await exchange(port, head, WIK_BODY);
    expect(res.status).toBe(408);
    expect(res.headers["content-type"]).toBe("application/problem+json");
    expect(res.headers["x-request-id"]).toBe("slow-body-1");
    expect(res.headers.connection).toBe("close");
    expect(JSON.parse(res.body)).toMatchObject({ status: 408, code: "request_timeout" });
    expect(res.closedAfterMs).toBeGreaterThanOrEqual(300);
    expect(res.closedAfterMs).toBeLessThan(3_000);
  });

  it("an upload that sends its headers and then nothing is cut after the grace period", async () => {
    const port = await start({ minBodyBytesPerSecond: 1, bodyGraceMs: 300 });
    const res = await exchange(
      port,
      "POST /api/v1/tools/wik HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n",
    );
    expect(res.status).toBe(408);
    expect(JSON.parse(res.body)).toMatchObject({ code: "request_timeout" });
    expect(res.closedAfterMs).toBeLessThan(3_000);
  });

  it("a body that arrives in time at a good rate is answered normally", async () => {
    const port = await start({ minBodyBytesPerSecond: 1_000, bodyGraceMs: 300 });
    const res = await exchange(
      port,
      "POST /api/v1/tools/wik HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
        `Connection: close\r\nContent-Length: ${WIK_BODY.length}\r\n\r\n${WIK_BODY}`,
    );
    expect(res.status).toBe(200);
  });

  it("with the rate check off, node's request time-out still cuts a slow body with 408", async () => {
    const port = await start({ minBodyBytesPerSecond: 0, headersTimeoutMs: 200, requestTimeoutMs: 600 });
    const head =
      "POST /api/v1/tools/wik HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
      `Content-Length: ${WIK_BODY.length}\r\n\r\n`;
    const res = await exchange(port, head, WIK_BODY);
    expect(res.status).toBe(408);
    expect(JSON.parse(res.body)).toMatchObject({ code: "request_timeout" });
    expect(res.closedAfterMs).toBeGreaterThanOrEqual(600);
    expect(res.closedAfterMs).toBeLessThan(3_000);
  });

  it("a connection over the cap gets 503 server_busy with Retry-After and is closed; below it again, one is served", async () => {
    const port = await start({ maxConnections: 2 });
    const held = [connect(port, "127.0.0.1"), connect(port, "127.0.0.1")];
    sockets.push(...held);
    await Promise.all(held.map((s) => new Promise((r) => s.once("connect", r))));
    // The server counts a connection when it accepts it, which follows the client's connect.
    await new Promise((r) => setTimeout(r, 50));
    const over = await exchange(port, "GET /api/v1/ping HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(over.status).toBe(503);
    expect(over.headers["retry-after"]).toBe("1");
    expect(over.headers["content-type"]).toBe("application/problem+json");
    expect(JSON.parse(over.body)).toMatchObject({ status: 503, code: "server_busy" });

    held[0]?.destroy();
    await new Promise((r) => setTimeout(r, 50));
    const served = await exchange(port, "GET /api/v1/ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(served.status).toBe(200);
  });

  it("refuses limits that are not positive integers", () => {
    const api = createApi({ publicOnly: true });
    expect(() => createNodeServer(api, { limits: { maxConnections: 0 } })).toThrow(RangeError);
    expect(() => createNodeServer(api, { limits: { headersTimeoutMs: 1.5 } })).toThrow(RangeError);
    expect(() =>
      createNodeServer(api, { limits: { headersTimeoutMs: 9_000, requestTimeoutMs: 5_000 } }),
    ).toThrow("headersTimeoutMs must not exceed requestTimeoutMs");
  });
});

describe("the body-rate guard on a keep-alive connection", () => {
  it("leaves no listener behind per request: 30 POSTs on one socket add none after the first", async () => {
    const server = createNodeServer(createApi({ publicOnly: true }), {
      limits: { minBodyBytesPerSecond: 1, bodyGraceMs: 60_000 },
    });
    servers.push(server);
    const serverSockets: Socket[] = [];
    server.on("connection", (s: Socket) => serverSockets.push(s));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const { Agent, request } = await import("node:http");
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = () =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          {
            agent,
            port,
            host: "127.0.0.1",
            method: "POST",
            path: "/api/v1/nowhere",
            headers: { "content-type": "application/json" },
          },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          },
        );
        req.on("error", reject);
        req.end('{"a":1}');
      });
    expect(await post()).toBe(404);
    expect(serverSockets).toHaveLength(1);
    const after1 = serverSockets[0]?.listenerCount("close");
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push(await post());
    agent.destroy();
    expect(statuses).toEqual(Array(30).fill(404));
    expect(serverSockets).toHaveLength(1);
    expect(serverSockets[0]?.listenerCount("close")).toBe(after1);
  });
});

// A route that reads at most 64 KiB of its body and cancels the rest, as every reader with a limit
// does (readBodyBytes; the console's forms).
const limited = definePlugin({
  name: "limited",
  routes: [
    defineRoute({
      method: "POST",
      path: "/limited",
      operationId: "limited",
      summary: "limited",
      auth: "none",
      responses: { 200: { description: "read" } },
      handle: async (ctx) => {
        try {
          await readBodyBytes(ctx.request, 64 * 1024);
          return new Response("read");
        } catch (error) {
          return new Response("too large", { status: isApiError(error) ? error.status : 500 });
        }
      },
    }),
  ],
});

describe("the body-rate guard when a body is left unread", () => {
  it("a large chunked body cancelled past a reader's limit leaves the server serving, with no error thrown", async () => {
    const server = createNodeServer(createApi({ publicOnly: true, plugins: [limited] }));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const thrown: unknown[] = [];
    const record = (error: unknown) => thrown.push(error);
    process.on("uncaughtException", record);
    try {
      // 16 MiB offered in 1 MiB chunks, without a length; the reader cancels it past 64 KiB.
      const chunk = new Uint8Array(1024 * 1024).fill(0x78);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 16) return controller.close();
          sent++;
          controller.enqueue(chunk);
        },
      });
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/limited`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        duplex: "half",
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(await res.text()).toBe("too large");
      // The server closes or drains the rest; either way the next request is served.
      const next = await fetch(`http://127.0.0.1:${port}/api/v1/nowhere`);
      expect(next.status).toBe(404);
      await next.text();
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      process.off("uncaughtException", record);
      // The client's keep-alive connections would hold the server's close for their time-out.
      server.closeAllConnections();
    }
    expect(thrown).toEqual([]);
  });
});
