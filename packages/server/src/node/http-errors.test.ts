import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { answerHttpErrors } from "./http-errors.js";

let servers: Server[] = [];

afterEach(async () => {
  await Promise.all(
    servers.map(
      (s) =>
        new Promise((r) => {
          s.closeAllConnections();
          s.close(r);
        }),
    ),
  );
  servers = [];
});

async function start(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** Sends `payload` on a plain socket; resolves with status, headers and body once it closes. */
function raw(port: number, payload: string) {
  return new Promise<{ status: number; headers: Record<string, string>; body: string }>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let data = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => {
      data += chunk;
    });
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", ...rest] = data.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(":");
        headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
      }
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n") });
    });
    socket.write(payload);
  });
}

// A host's server that answers every request it routes with 200 text; what answerHttpErrors adds
// is only what node answers before that listener runs.
function hostServer(): Server {
  return createServer((_req, res) => {
    res.setHeader("content-type", "text/plain");
    res.end("host");
  });
}

describe("answerHttpErrors on a host's own server", () => {
  it("returns the server it was given, so it wraps app.listen()", () => {
    const server = hostServer();
    expect(answerHttpErrors(server)).toBe(server);
  });

  it("an Expect other than 100-continue → 417 expectation_failed as problem+json; the host's listener is not run", async () => {
    const port = await start(answerHttpErrors(hostServer()));
    const res = await raw(
      port,
      "GET /anything HTTP/1.1\r\nHost: x\r\nExpect: x-unknown\r\nX-Request-Id: host-417\r\nConnection: close\r\n\r\n",
    );
    expect(res.status).toBe(417);
    expect(res.headers["content-type"]).toBe("application/problem+json");
    expect(res.headers["x-request-id"]).toBe("host-417");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(JSON.parse(res.body)).toEqual({
      type: "https://incasso.dev/problems/expectation_failed",
      title: "Expectation Failed",
      status: 417,
      code: "expectation_failed",
      detail: "The expectation x-unknown cannot be met: only Expect: 100-continue is understood.",
    });
  });

  it("an Expect header of many bytes is not copied back", async () => {
    const port = await start(answerHttpErrors(hostServer()));
    const res = await raw(
      port,
      `GET / HTTP/1.1\r\nHost: x\r\nExpect: ${"x".repeat(65)}\r\nConnection: close\r\n\r\n`,
    );
    expect(res.status).toBe(417);
    expect(JSON.parse(res.body).detail).toBe(
      "The expectation cannot be met: only Expect: 100-continue is understood.",
    );
  });

  it("a request without an unusual Expect reaches the host's own listener", async () => {
    const port = await start(answerHttpErrors(hostServer()));
    const res = await raw(port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(res.status).toBe(200);
    expect(res.body).toBe("host");
  });

  it("replaces a clientError listener the server had (Fastify installs one), and twice is once", async () => {
    const server = hostServer();
    const theirs = (_error: Error, socket: Socket) => {
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n\r\n{"their":"json"}');
    };
    server.on("clientError", theirs);
    server.on("checkExpectation", (_req, res) => res.writeHead(417).end());
    answerHttpErrors(answerHttpErrors(server));
    expect(server.listenerCount("clientError")).toBe(1);
    expect(server.listenerCount("checkExpectation")).toBe(1);
    const port = await start(server);
    const res = await raw(port, "THIS IS NOT HTTP\r\n\r\n");
    expect(res.status).toBe(400);
    expect(res.headers["content-type"]).toBe("application/problem+json");
    expect(res.headers.connection).toBe("close");
    expect(res.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/);
    expect(JSON.parse(res.body)).toEqual({
      type: "https://incasso.dev/problems/bad_request",
      title: "Bad Request",
      status: 400,
      code: "bad_request",
      detail: "The request could not be parsed as HTTP.",
    });
    const expectation = await raw(
      port,
      "GET / HTTP/1.1\r\nHost: x\r\nExpect: x\r\nConnection: close\r\n\r\n",
    );
    expect(expectation.headers["content-type"]).toBe("application/problem+json");
  });

  it("clientErrors: false keeps the server's own clientError listener and still answers the Expect", async () => {
    const server = hostServer();
    const theirs = (_error: Error, socket: Socket) => {
      socket.end(
        'HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: 16\r\nConnection: close\r\n\r\n{"their":"json"}',
      );
    };
    server.on("clientError", theirs);
    answerHttpErrors(server, { clientErrors: false });
    expect(server.listeners("clientError")).toEqual([theirs]);
    const port = await start(server);
    const res = await raw(port, "THIS IS NOT HTTP\r\n\r\n");
    expect(res.status).toBe(400);
    expect(res.headers["content-type"]).toBe("application/json");
    expect(res.body).toBe('{"their":"json"}');
    const expectation = await raw(
      port,
      "GET / HTTP/1.1\r\nHost: x\r\nExpect: x\r\nConnection: close\r\n\r\n",
    );
    expect(expectation.status).toBe(417);
    expect(expectation.headers["content-type"]).toBe("application/problem+json");
  });

  it("headers over node's limit → 431 headers_too_large as problem+json", async () => {
    const port = await start(answerHttpErrors(hostServer()));
    const res = await raw(
      port,
      `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(40_000)}\r\nConnection: close\r\n\r\n`,
    );
    expect(res.status).toBe(431);
    expect(res.headers["content-type"]).toBe("application/problem+json");
    expect(JSON.parse(res.body)).toMatchObject({ status: 431, code: "headers_too_large" });
  });
});
