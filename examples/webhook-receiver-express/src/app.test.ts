import type { Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { signWebhook, type WebhookEvent } from "@incasso/webhook-signing";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, incassoWebhook } from "./app.js";

const SECRET = "whsec_example_express";
// Pretty-printed, non-ASCII: any re-serialisation on the way would break the signature.
const BODY = `${JSON.stringify(
  {
    id: "evt_0f1e2d3c4b5a6978",
    object: "event",
    type: "case.closed",
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
const onEvent = (event: WebhookEvent) => void received.push(event);

function listen(app: express.Express): Promise<{ server: Server; url: string }> {
  return new Promise((resolve) => {
    const server = app.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}/webhooks/incasso` });
    });
  });
}

const post = (url: string, body: string, headers: Record<string, string>) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });

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

let good: { server: Server; url: string };
let misordered: { server: Server; url: string };

beforeAll(async () => {
  good = await listen(createApp({ secret: SECRET, onEvent }));
  // The classic mistake: a global JSON parser in front of the webhook route.
  const wrong = express();
  wrong.use(express.json());
  wrong.post("/webhooks/incasso", ...incassoWebhook({ secret: SECRET, onEvent }));
  misordered = await listen(wrong);
});
afterAll(() => {
  good.server.close();
  misordered.server.close();
});

describe("Express 5 receiver", () => {
  it("answers 204 to a signed delivery and hands over the parsed event", async () => {
    const res = await post(good.url, BODY, signWebhook({ body: BODY, secret: SECRET }));
    expect(res.status).toBe(204);
    expect(received.at(-1)).toEqual(JSON.parse(BODY));
  });

  it("answers 400 signature_mismatch to a tampered delivery", async () => {
    const res = await post(
      good.url,
      BODY.replace("case.closed", "case.updated"),
      signWebhook({ body: BODY, secret: SECRET }),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
    expect(await res.json()).toMatchObject({ status: 400, code: "signature_mismatch" });
  });

  it("answers 400 timestamp_out_of_tolerance to a replay of an old delivery", async () => {
    const old = Math.floor(Date.now() / 1000) - 301;
    const res = await post(good.url, BODY, signWebhook({ body: BODY, secret: SECRET, timestamp: old }));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "timestamp_out_of_tolerance" });
  });

  it("answers 500 body_already_parsed when express.json() runs before the route", async () => {
    const res = await post(misordered.url, BODY, signWebhook({ body: BODY, secret: SECRET }));
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      code: "body_already_parsed",
      detail: "Mount the webhook route before express.json().",
    });
  });

  // A missing body is an empty body: verified as "", it gets the normal 400, not a 500.
  it("answers 400 missing_header to a POST with no body and no Content-Length", async () => {
    const res = await postWithoutBody(good.url, {});
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, code: "missing_header" });
  });

  it("answers 400 invalid_payload to a signed POST with no body and no Content-Length", async () => {
    const res = await postWithoutBody(good.url, signWebhook({ body: "", secret: SECRET, eventType: "ping" }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, code: "invalid_payload" });
  });

  it("runs onEvent once for a delivery sent twice and answers 204 both times", async () => {
    // Its own id, so that the deliveries of the other tests do not count.
    const body = BODY.replace("evt_0f1e2d3c4b5a6978", "evt_sent_twice");
    const headers = signWebhook({ body, secret: SECRET });
    const first = await post(good.url, body, headers);
    const second = await post(good.url, body, headers);
    expect([first.status, second.status]).toEqual([204, 204]);
    expect(received.filter((event) => event.id === "evt_sent_twice")).toEqual([JSON.parse(body)]);
  });
});
