import { connect } from "node:net";
import { signWebhook, type WebhookEvent } from "@incasso/webhook-signing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "./app.js";

const SECRET = "whsec_example_fastify";
// Pretty-printed, non-ASCII: any re-serialisation on the way would break the signature.
const BODY = `${JSON.stringify(
  {
    id: "evt_0f1e2d3c4b5a6978",
    object: "event",
    type: "correspondence.sent",
    created_at: "2026-11-21T10:00:00Z",
    data: {
      order_id: "ord_0123456789abcdef",
      case_number: "2026-000123",
      reference: "Één café €",
      case_event: null,
    },
  },
  null,
  2,
)}\n`;

const received: WebhookEvent[] = [];
const app = createApp({ secret: SECRET, onEvent: (event) => void received.push(event) });
// A sibling route outside the plugin, to show JSON parsing still works there.
app.post("/other", async (request) => request.body);
let base: string;

beforeAll(async () => {
  base = await app.listen({ host: "127.0.0.1", port: 0 });
});
afterAll(() => app.close());

const post = (path: string, body: string, headers: Record<string, string>) =>
  fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });

/**
 * A POST with neither a body nor Content-Length, written on a raw socket: fetch and node:http
 * always add `Content-Length: 0` to a POST, but other clients (and proxies) need not.
 */
function postWithoutBody(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: unknown }> {
  const { hostname, port, pathname } = new URL(url);
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  const request = `POST ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n${lines.join("")}\r\n`;
  return new Promise((resolve, reject) => {
    let text = "";
    const socket = connect(Number(port), hostname, () => socket.write(request));
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
    });
    socket.on("error", reject);
    socket.on("end", () => {
      const [head = "", body = ""] = text.split("\r\n\r\n");
      resolve({ status: Number(head.split(" ")[1]), body: JSON.parse(body) });
    });
  });
}

describe("Fastify 5 receiver", () => {
  it("answers 204 to a signed delivery and hands over the parsed event", async () => {
    const res = await post("/webhooks/incasso", BODY, signWebhook({ body: BODY, secret: SECRET }));
    expect(res.status).toBe(204);
    expect(received.at(-1)).toEqual(JSON.parse(BODY));
  });

  it("answers 400 signature_mismatch to a tampered delivery", async () => {
    const headers = signWebhook({ body: BODY, secret: SECRET });
    const res = await post("/webhooks/incasso", BODY.replace("Één", "Een"), headers);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
    expect(await res.json()).toMatchObject({ status: 400, code: "signature_mismatch" });
  });

  it("answers 400 malformed_header to a garbled signature", async () => {
    const headers = { ...signWebhook({ body: BODY, secret: SECRET }), "X-Service-Signature": "sha256=abc" };
    const res = await post("/webhooks/incasso", BODY, headers);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "malformed_header" });
  });

  it("leaves JSON parsing in place outside the plugin", async () => {
    const res = await post("/other", '{"a": 1}', {});
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ a: 1 });
  });

  // A missing body is an empty body: verified as "", it gets the normal 400, not a 500.
  it("answers 400 missing_header to a POST with no body and no Content-Length", async () => {
    const res = await postWithoutBody(`${base}/webhooks/incasso`, {});
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, code: "missing_header" });
  });

  it("answers 400 invalid_payload to a signed POST with no body and no Content-Length", async () => {
    const res = await postWithoutBody(
      `${base}/webhooks/incasso`,
      signWebhook({ body: "", secret: SECRET, eventType: "ping" }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, code: "invalid_payload" });
  });

  it("runs onEvent once for a delivery sent twice and answers 204 both times", async () => {
    // Its own id, so that the deliveries of the other tests do not count.
    const body = BODY.replace("evt_0f1e2d3c4b5a6978", "evt_sent_twice");
    const headers = signWebhook({ body, secret: SECRET });
    const first = await post("/webhooks/incasso", body, headers);
    const second = await post("/webhooks/incasso", body, headers);
    expect([first.status, second.status]).toEqual([204, 204]);
    expect(received.filter((event) => event.id === "evt_sent_twice")).toEqual([JSON.parse(body)]);
  });
});
