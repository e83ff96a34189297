import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listen } from "@incasso/server/node";
import { openStore, type SqlStore } from "@incasso/store-sql";
import { newDataDir } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createIncasso } from "../create-incasso.js";
import { directOperations } from "./operations.js";
import { OperatorError, readOperatorEndpoint, remoteOperations } from "./operator-client.js";
import { type OperatorEndpoint, startOperatorEndpoint } from "./operator-endpoint.js";

// The operator endpoint is guarded as the API is (issue 28, decision operator-endpoint): refusals
// as problem+json with the right status, a body limit kept while reading, and a connection cap
// with time-outs, so idle local connections cannot take the process's sockets from the API.

const problem = (status: number, title: string, code: string, detail: string) => ({
  status,
  type: "application/problem+json",
  body: { type: `https://incasso.dev/problems/${code}`, title, status, code, detail },
});

/** Sends raw bytes to a port on 127.0.0.1 and resolves with all that comes back before the close. */
function raw(port: number, ...parts: (string | Buffer)[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.on("connect", () => {
      for (const part of parts) socket.write(part);
    });
  });
}

const statusLine = (answer: string) => answer.split("\r\n", 1)[0];
const answerBody = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as unknown;

describe("the operator endpoint's answers", () => {
  let store: SqlStore;
  let endpoint: OperatorEndpoint;
  let dir: string;
  const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  beforeAll(async () => {
    store = await openStore();
    dir = mkdtempSync(join(tmpdir(), "incasso-operator-endpoint-"));
    const operations = directOperations(store);
    endpoint = await startOperatorEndpoint({
      operations: {
        ...operations,
        // A fault of the server itself, with a message that must not reach the caller.
        listWebhooks: async () => {
          throw new Error("relation webhook_endpoints is locked by pid 4242");
        },
      },
      dataDir: dir,
      logger,
    });
  });
  afterAll(async () => {
    await endpoint.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = async (op: string, body: string, token?: string) => {
    const info = readOperatorEndpoint(dir);
    const res = await fetch(`${info?.url}/operator/${op}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token ?? info?.token}`, "content-type": "application/json" },
      body,
    });
    return { status: res.status, type: res.headers.get("content-type"), body: await res.json() };
  };
  const port = () => Number(new URL(endpoint.url).port);
  const token = () => readOperatorEndpoint(dir)?.token ?? "";

  it("answers bad JSON with 400 invalid_json", async () => {
    expect(await post("list-keys", '{"organisation": ')).toEqual(
      problem(400, "Bad Request", "invalid_json", "The body is not valid JSON."),
    );
  });

  it("answers wrong JSON types with 422 validation_error naming every wrong field", async () => {
    expect(await post("revoke-key", JSON.stringify({ id: 5 }))).toEqual(
      problem(
        422,
        "Unprocessable Content",
        "validation_error",
        "Wrong input for revoke-key: id must be a string.",
      ),
    );
    expect(await post("create-key", JSON.stringify({ organisation: ["Acme BV"], per_minute: "30" }))).toEqual(
      problem(
        422,
        "Unprocessable Content",
        "validation_error",
        "Wrong input for create-key: organisation must be a string; mode is required (a string); per_minute must be a number.",
      ),
    );
    expect(
      await post("set-letter-details", JSON.stringify({ organisation: "Acme BV", details: null })),
    ).toEqual(
      problem(
        422,
        "Unprocessable Content",
        "validation_error",
        "Wrong input for set-letter-details: details must be a JSON object.",
      ),
    );
    expect(await post("list-keys", "[1, 2]")).toEqual(
      problem(
        422,
        "Unprocessable Content",
        "validation_error",
        "The body of list-keys must be a JSON object.",
      ),
    );
    // The CLI's client reads the code and the detail of the problem.
    const remote = remoteOperations({ url: endpoint.url, token: token(), pid: process.pid });
    const refused = await remote.revokeKey(7 as unknown as string).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OperatorError);
    expect(refused).toMatchObject({
      code: "validation_error",
      message: "Wrong input for revoke-key: id must be a string.",
    });
  });

  it("answers a wrong token with 401 and an unknown operation with 404, as problems", async () => {
    expect(await post("list-keys", "{}", "wrong")).toEqual(
      problem(401, "Unauthorized", "unauthorized", "The operator token is missing or wrong."),
    );
    expect(await post("drop-everything", "{}")).toEqual(
      problem(404, "Not Found", "not_found", "No operation drop-everything."),
    );
  });

  it("answers a fault of the server with 500 and a generic detail, the cause only in the log", async () => {
    expect(await post("list-webhooks", "{}")).toEqual(
      problem(
        500,
        "Internal Server Error",
        "internal_error",
        "The server could not carry out the operation. Its log has the cause.",
      ),
    );
    expect(logger.error).toHaveBeenCalledWith("operator endpoint: the operation failed", {
      url: "/operator/list-webhooks",
      error: "relation webhook_endpoints is locked by pid 4242",
    });
    const remote = remoteOperations({ url: endpoint.url, token: token(), pid: process.pid });
    await expect(remote.listWebhooks()).rejects.toMatchObject({
      code: "internal_error",
      message: "The server could not carry out the operation. Its log has the cause.",
    });
  });

  it("answers what node refuses itself as the API does: an unmet Expect with 417, a bad request line with 400", async () => {
    const expectation = await raw(
      port(),
      `POST /operator/list-keys HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token()}\r\n` +
        "Expect: x-unknown\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
    );
    expect(statusLine(expectation)).toBe("HTTP/1.1 417 Expectation Failed");
    expect(expectation).toMatch(/\r\ncontent-type: application\/problem\+json\r\n/i);
    expect(answerBody(expectation)).toMatchObject({ status: 417, code: "expectation_failed" });
    const garbage = await raw(port(), "NOT HTTP AT ALL\r\n\r\n");
    expect(statusLine(garbage)).toBe("HTTP/1.1 400 Bad Request");
    expect(answerBody(garbage)).toMatchObject({ status: 400, code: "bad_request" });
  });

  it("refuses a declared Content-Length over the limit with 413 before reading the body", async () => {
    // Only the headers are sent: the answer comes without a byte of the body.
    const answer = await raw(
      port(),
      "POST /operator/list-keys HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
        `Authorization: Bearer ${token()}\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n`,
    );
    expect(statusLine(answer)).toBe("HTTP/1.1 413 Payload Too Large");
    expect(answer).toMatch(/\r\ncontent-type: application\/problem\+json\r\n/i);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(answerBody(answer)).toEqual(
      problem(413, "Content Too Large", "payload_too_large", "The body is larger than 65536 bytes.").body,
    );
  });

  it("refuses a chunked body with 413 once it grows past the limit", async () => {
    const chunk = Buffer.alloc(10_000, 0x20);
    const chunks = Array.from({ length: 7 }, () =>
      Buffer.concat([Buffer.from("2710\r\n"), chunk, Buffer.from("\r\n")]),
    );
    // 70 000 bytes of body, never ended: the endpoint answers as soon as it is past 65 536.
    const answer = await raw(
      port(),
      "POST /operator/list-keys HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
        `Authorization: Bearer ${token()}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      ...chunks,
    );
    expect(statusLine(answer)).toBe("HTTP/1.1 413 Payload Too Large");
    expect(answerBody(answer)).toEqual(
      problem(413, "Content Too Large", "payload_too_large", "The body is larger than 65536 bytes.").body,
    );
  });

  it("takes a body at the limit and answers a valid operation", async () => {
    const padded = JSON.stringify({ pad: "x".repeat(65_536 - 10) });
    expect(Buffer.byteLength(padded)).toBe(65_536);
    expect(await post("list-keys", padded)).toEqual({
      status: 200,
      type: "application/json",
      body: { result: [] },
    });
  });
});

describe("the operator endpoint under a flood of idle connections", () => {
  const FLOOD = 200;
  const CAP = 20;
  let dir: string;
  let incasso: Awaited<ReturnType<typeof createIncasso>>;
  let api: { server: Server; url: string };
  const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  beforeAll(async () => {
    dir = await newDataDir("incasso-operator-flood-");
    incasso = await createIncasso(
      { dataDir: dir },
      {
        startLines: false,
        logger,
        env: {},
        webhooks: false,
        letters: false,
        operatorEndpoint: { maxConnections: CAP, headersTimeoutMs: 2_000, requestTimeoutMs: 2_000 },
      },
    );
    api = await listen(incasso.api, { port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    api.server.closeAllConnections();
    await new Promise((resolve) => api.server.close(resolve));
    await incasso.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses connections over the cap with 503, times the idle ones out, and the API keeps answering", async () => {
    const port = Number(new URL(incasso.operator?.url ?? "").port);
    const sockets: Socket[] = [];
    const answers: Promise<string>[] = [];
    const open = (): Promise<void> =>
      new Promise((resolve, reject) => {
        const socket = connect(port, "127.0.0.1");
        sockets.push(socket);
        const chunks: Buffer[] = [];
        socket.on("data", (chunk) => chunks.push(chunk));
        answers.push(
          new Promise((done) => socket.on("close", () => done(Buffer.concat(chunks).toString("utf8")))),
        );
        socket.once("connect", () => resolve());
        socket.once("error", reject);
      });
    try {
      // Idle connections without the token that send nothing: the first CAP are held until their
      // headers time-out, every one after them is refused at once.
      for (let i = 0; i < CAP; i++) await open();
      await Promise.all(Array.from({ length: FLOOD - CAP }, open));
      const firstRefused = await answers[CAP];
      expect(statusLine(firstRefused ?? "")).toBe("HTTP/1.1 503 Service Unavailable");
      expect(firstRefused).toMatch(/\r\nRetry-After: 1\r\n/);
      expect(answerBody(firstRefused ?? "")).toEqual({
        type: "https://incasso.dev/problems/server_busy",
        title: "Service Unavailable",
        status: 503,
        code: "server_busy",
        detail: "The operator endpoint has too many open connections. Try again shortly.",
      });
      // While the endpoint is full, the API in the same process answers.
      const ping = await fetch(`${api.url}/ping`);
      expect(ping.status).toBe(200);
      const healthz = await fetch(new URL("/healthz", api.url));
      expect(healthz.status).toBe(200);
      // The flood ends by itself: every connection is answered and closed.
      const all = await Promise.all(answers);
      const lines = all.map(statusLine);
      expect(lines.filter((l) => l === "HTTP/1.1 408 Request Timeout")).toHaveLength(CAP);
      expect(lines.filter((l) => l === "HTTP/1.1 503 Service Unavailable")).toHaveLength(FLOOD - CAP);
      // The cap was reported once for the whole flood, not once per connection.
      expect(
        logger.warn.mock.calls.filter(([message]) => String(message).startsWith("operator endpoint")),
      ).toEqual([
        [
          "operator endpoint: connection cap reached; further connections are refused",
          { max_connections: CAP, open: CAP },
        ],
      ]);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
    // A proper request is answered again, once the endpoint has seen the flood's connections close
    // (a few turns of its event loop after the client saw them close).
    const info = readOperatorEndpoint(dir);
    if (info === undefined) throw new Error("no operator.json");
    let keys: unknown;
    for (let attempt = 0; attempt < 50 && keys === undefined; attempt++) {
      keys = await remoteOperations(info)
        .listKeys()
        .catch(async (error: unknown) => {
          if ((error as OperatorError).code !== "server_busy") throw error;
          await new Promise((resolve) => setTimeout(resolve, 20));
          return undefined;
        });
    }
    expect(keys).toEqual([]);
  });
});
