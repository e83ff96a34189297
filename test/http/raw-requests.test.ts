import { connect } from "node:net";
import {
  expressTransport,
  fastifyTransport,
  fixtureApi,
  nodeHttpTransport,
  type RunningTransport,
} from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** Sends bytes over a plain socket and returns status, headers and body of the answer. */
function raw(address: { host: string; port: number }, payload: string) {
  return new Promise<{ status: number; headers: Record<string, string>; body: string }>((resolve, reject) => {
    const socket = connect(address.port, address.host);
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
      let body = rest.join("\r\n\r\n");
      if (headers["transfer-encoding"] === "chunked") {
        body = body.replace(/^[0-9a-f]+\r\n/i, "").replace(/\r\n0\r\n\r\n$/, "");
      }
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body });
    });
    socket.write(payload);
  });
}

function addressOf(t: RunningTransport) {
  if (!t.address) throw new Error("this transport has no socket address");
  return t.address;
}

describe.each([nodeHttpTransport, expressTransport, fastifyTransport])(
  "raw requests over $name",
  (transport) => {
    let t: RunningTransport;
    beforeAll(async () => {
      t = await transport.start(fixtureApi());
    });
    afterAll(() => t.close());

    it("a body on GET → 400 body_not_allowed", async () => {
      const a = addressOf(t);
      const res = await raw(
        a,
        `GET ${a.prefix}/ping HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc`,
      );
      expect(res.status).toBe(400);
      expect(res.headers["content-type"]).toBe("application/problem+json");
      expect(JSON.parse(res.body)).toMatchObject({ status: 400, code: "body_not_allowed" });
    });

    it("an unknown method such as PROPFIND → 405 with Allow", async () => {
      const a = addressOf(t);
      const res = await raw(a, `PROPFIND ${a.prefix}/ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe("GET, HEAD, OPTIONS");
      expect(JSON.parse(res.body)).toMatchObject({ code: "method_not_allowed" });
    });
  },
);

// The requests node's own HTTP layer answers before any handler runs. The reference server wires
// them to problem+json itself; the Express and Fastify example hosts own their servers and wire them
// with one call, answerHttpErrors(server) (decision server-http-edge-cases).
describe.each([nodeHttpTransport, expressTransport, fastifyTransport])(
  "parser errors and expectations over $name",
  (transport) => {
    let t: RunningTransport;
    beforeAll(async () => {
      t = await transport.start(fixtureApi());
    });
    afterAll(() => t.close());

    it("oversized headers → 431 headers_too_large as problem+json", async () => {
      const res = await raw(
        addressOf(t),
        `GET ${addressOf(t).prefix}/ping HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(40_000)}\r\nConnection: close\r\n\r\n`,
      );
      expect(res.status).toBe(431);
      expect(res.headers["content-type"]).toBe("application/problem+json");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/);
      expect(JSON.parse(res.body)).toMatchObject({ status: 431, code: "headers_too_large" });
    });

    it("an Expect other than 100-continue → 417 expectation_failed as problem+json, the client's id echoed", async () => {
      const a = addressOf(t);
      const res = await raw(
        a,
        `POST ${a.prefix}/orders HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nX-Request-Id: client-417\r\n` +
          "Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
      );
      expect(res.status).toBe(417);
      expect(res.headers["content-type"]).toBe("application/problem+json");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["x-request-id"]).toBe("client-417");
      expect(JSON.parse(res.body)).toEqual({
        type: "https://incasso.dev/problems/expectation_failed",
        title: "Expectation Failed",
        status: 417,
        code: "expectation_failed",
        detail: "The expectation 200-ok cannot be met: only Expect: 100-continue is understood.",
      });
      // An id that cannot be echoed safely is replaced, as on every answer.
      const other = await raw(
        a,
        `GET ${a.prefix}/ping HTTP/1.1\r\nHost: x\r\nExpect: x\r\nX-Request-Id: two words\r\nConnection: close\r\n\r\n`,
      );
      expect(other.status).toBe(417);
      expect(other.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/);
      // Expect: 100-continue is served as always: the interim 100, then the answer.
      const ok = await raw(
        a,
        `GET ${a.prefix}/ping HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
      );
      expect(ok.status).toBe(100);
      expect(ok.body).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    });

    it("Expect: x-unknown → 417 expectation_failed as problem+json, the route not run", async () => {
      const a = addressOf(t);
      const res = await raw(
        a,
        `GET ${a.prefix}/ping HTTP/1.1\r\nHost: x\r\nExpect: x-unknown\r\nConnection: close\r\n\r\n`,
      );
      expect(res.status).toBe(417);
      expect(res.headers["content-type"]).toBe("application/problem+json");
      expect(res.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/);
      expect(JSON.parse(res.body)).toEqual({
        type: "https://incasso.dev/problems/expectation_failed",
        title: "Expectation Failed",
        status: 417,
        code: "expectation_failed",
        detail: "The expectation x-unknown cannot be met: only Expect: 100-continue is understood.",
      });
    });

    it("a garbage request line → 400 bad_request as problem+json", async () => {
      const res = await raw(addressOf(t), "THIS IS NOT HTTP\r\n\r\n");
      expect(res.status).toBe(400);
      expect(res.headers["content-type"]).toBe("application/problem+json");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(JSON.parse(res.body)).toMatchObject({ status: 400, code: "bad_request" });
    });
  },
);
