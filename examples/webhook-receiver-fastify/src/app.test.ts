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
});
