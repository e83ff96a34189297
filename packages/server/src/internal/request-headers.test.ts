import type { IncomingMessage } from "node:http";
import { NodeRequest } from "srvx/node";
import { describe, expect, it } from "vitest";
import { declaresRequestBody, requestHeader } from "./request-headers.js";

// A node request as srvx wraps it: only the parsed header object is read.
function nodeRequest(headers: Record<string, string>): Request {
  const req = { headers, rawHeaders: Object.entries(headers).flat(), method: "GET", url: "/" };
  return new NodeRequest({ req: req as unknown as IncomingMessage }) as unknown as Request;
}

describe("request headers", () => {
  it("answer as Headers.get does, on a web Request and on node's parsed headers", () => {
    for (const make of [
      (h: Record<string, string>) => new Request("http://localhost/", { headers: h }),
      nodeRequest,
    ]) {
      const request = make({ "x-request-id": "a, b", authorization: "Bearer k" });
      expect(requestHeader(request, "x-request-id")).toBe("a, b");
      expect(requestHeader(request, "authorization")).toBe("Bearer k");
      expect(requestHeader(request, "content-length")).toBeNull();
    }
  });

  it("tell a declared body by Content-Length above zero or a Transfer-Encoding (RFC 9112 §6.3)", () => {
    const cases: [Record<string, string>, boolean][] = [
      [{}, false],
      [{ "content-length": "0" }, false],
      [{ "content-length": "2" }, true],
      [{ "transfer-encoding": "chunked" }, true],
    ];
    for (const [headers, expected] of cases) {
      expect(declaresRequestBody(nodeRequest(headers))).toBe(expected);
      const web = new Request("http://localhost/", { method: "POST", headers, body: expected ? "{}" : null });
      // A web Request computes no Content-Length of its own: only what was set is read.
      expect(declaresRequestBody(web)).toBe(expected);
    }
  });
});
