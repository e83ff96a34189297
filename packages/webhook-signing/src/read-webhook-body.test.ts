import { describe, expect, it } from "vitest";
import { MAX_WEBHOOK_BODY_BYTES, readWebhookBody } from "./read-webhook-body.js";

const CHUNK = 64 * 1024;

/** A body stream of `chunks` chunks of 64 KiB (endless when Infinity), recording what was read. */
function counted(chunks: number) {
  const seen = { pulls: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulls === chunks) return controller.close();
      seen.pulls += 1;
      controller.enqueue(new Uint8Array(CHUNK).fill(seen.pulls % 256));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
  new Request("http://127.0.0.1/webhooks/incasso", {
    method: "POST",
    body,
    headers,
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);

describe("readWebhookBody", () => {
  it("caps at 1 MiB by default", () => {
    expect(MAX_WEBHOOK_BODY_BYTES).toBe(1_048_576);
  });

  it("returns the exact bytes of a body at the cap", async () => {
    const bytes = new Uint8Array(1000).map((_, i) => i % 251);
    expect(await readWebhookBody(post(bytes), 1000)).toEqual(bytes);
  });

  it("returns the bytes of a streamed body of several chunks in order", async () => {
    const { stream } = counted(3);
    const body = await readWebhookBody(post(stream), 3 * CHUNK);
    expect(body?.byteLength).toBe(3 * CHUNK);
    expect([body?.[0], body?.[CHUNK], body?.[2 * CHUNK]]).toEqual([1, 2, 3]);
  });

  it("returns an empty array for a request without a body", async () => {
    expect(await readWebhookBody(new Request("http://127.0.0.1/", { method: "POST" }))).toEqual(
      new Uint8Array(0),
    );
  });

  it("refuses one byte over the cap", async () => {
    expect(await readWebhookBody(post(new Uint8Array(1001)), 1000)).toBeNull();
  });

  it("refuses a Content-Length over the cap without reading the body", async () => {
    const { stream, seen } = counted(Number.POSITIVE_INFINITY);
    expect(await readWebhookBody(post(stream, { "content-length": String(2 * CHUNK) }), CHUNK)).toBeNull();
    expect(seen.pulls).toBeLessThanOrEqual(1); // a stream may pre-fill its queue once; never read past it
  });

  it("stops reading an endless stream with no Content-Length once the count passes the cap", async () => {
    const { stream, seen } = counted(Number.POSITIVE_INFINITY);
    expect(await readWebhookBody(post(stream), 4 * CHUNK)).toBeNull();
    expect(seen.cancelled).toBe(true);
    expect(seen.pulls).toBeLessThanOrEqual(6); // 5 chunks pass the cap, plus at most one queued ahead
  });

  it("counts the bytes even when Content-Length understates them", async () => {
    const { stream, seen } = counted(Number.POSITIVE_INFINITY);
    expect(await readWebhookBody(post(stream, { "content-length": "10" }), 4 * CHUNK)).toBeNull();
    expect(seen.cancelled).toBe(true);
  });
});
