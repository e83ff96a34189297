import { MAX_WEBHOOK_BODY_BYTES, signWebhook, type WebhookEvent } from "@incasso/webhook-signing";
import { serve } from "h3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "./app.js";

const SECRET = "whsec_example_h3";
// Pretty-printed, non-ASCII: any re-serialisation on the way would break the signature.
const BODY = `${JSON.stringify(
  {
    id: "evt_0f1e2d3c4b5a6978",
    object: "event",
    type: "invoice.updated",
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
const server = serve(
  createApp({ secret: [SECRET, "whsec_old"], onEvent: (event) => void received.push(event) }),
  {
    hostname: "127.0.0.1",
    port: 0,
    silent: true,
    gracefulShutdown: false,
  },
);
let url: string;

beforeAll(async () => {
  await server.ready();
  url = new URL("/webhooks/incasso", server.url).href;
});
afterAll(() => server.close(true));

const post = (body: string, headers: Record<string, string>) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });

describe("h3 v2 receiver", () => {
  it("answers 204 to a signed delivery and hands over the parsed event", async () => {
    const res = await post(BODY, signWebhook({ body: BODY, secret: SECRET }));
    expect(res.status).toBe(204);
    expect(received.at(-1)).toEqual(JSON.parse(BODY));
  });

  it("answers 204 to a delivery signed with the old secret during a rotation", async () => {
    const res = await post(BODY, signWebhook({ body: BODY, secret: "whsec_old" }));
    expect(res.status).toBe(204);
  });

  it("answers 400 signature_mismatch to a tampered delivery", async () => {
    const headers = signWebhook({ body: BODY, secret: SECRET });
    const res = await post(BODY.replace("  ", " "), headers);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toMatchObject({ status: 400, code: "signature_mismatch" });
  });

  it("answers 400 event_type_mismatch when X-Service-Event disagrees with the signed body", async () => {
    const headers = { ...signWebhook({ body: BODY, secret: SECRET }), "X-Service-Event": "case.closed" };
    const res = await post(BODY, headers);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "event_type_mismatch" });
  });

  it("runs onEvent once for a delivery sent twice and answers 204 both times", async () => {
    // Its own id, so that the deliveries of the other tests do not count.
    const body = BODY.replace("evt_0f1e2d3c4b5a6978", "evt_sent_twice");
    const headers = signWebhook({ body, secret: SECRET });
    const first = await post(body, headers);
    const second = await post(body, headers);
    expect([first.status, second.status]).toEqual([204, 204]);
    expect(received.filter((event) => event.id === "evt_sent_twice")).toEqual([JSON.parse(body)]);
  });

  // The same event padded with trailing whitespace (still valid JSON) to an exact size in bytes.
  const padded = (bytes: number) => BODY + " ".repeat(bytes - Buffer.byteLength(BODY));

  it("accepts a signed delivery of exactly 1 MiB", async () => {
    const body = padded(MAX_WEBHOOK_BODY_BYTES);
    const res = await post(body, signWebhook({ body, secret: SECRET }));
    expect(res.status).toBe(204);
  });

  it("answers 413 payload_too_large to a body one byte over 1 MiB, even when signed", async () => {
    const body = padded(MAX_WEBHOOK_BODY_BYTES + 1);
    const res = await post(body, signWebhook({ body, secret: SECRET }));
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toMatchObject({ status: 413, code: "payload_too_large" });
  });

  it("answers 413 to a chunked body without Content-Length once it passes 1 MiB", async () => {
    let sent = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Bounded, so the test ends even if the receiver kept reading: 4 MiB at most.
        if (sent >= 4 * MAX_WEBHOOK_BODY_BYTES) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...signWebhook({ body: BODY, secret: SECRET }) },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: "payload_too_large" });
  });
});
