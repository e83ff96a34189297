import { createHmac } from "node:crypto";
import { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { verifyWebhook } from "./verify-webhook.js";

const SECRET = "whsec_current";
const OLD_SECRET = "whsec_previous";
const T = 1795255200; // 2026-11-21T10:00:00Z
const BODY = '{"id":"evt_1","object":"event","type":"case.updated"}';

// Independent of the implementation: node:crypto directly.
const sign = (body: string, timestamp: number | string, secret = SECRET) =>
  createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");

const headersFor = (body = BODY, timestamp: number | string = T, secret = SECRET) => ({
  "x-service-signature": sign(body, timestamp, secret),
  "x-service-timestamp": String(timestamp),
  "x-service-event": "case.updated",
});

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

describe("verifyWebhook: accepting", () => {
  it("accepts a correctly signed delivery and reports timestamp, event and secret", () => {
    expect(verifyWebhook(BODY, headersFor(), SECRET, { now: T })).toEqual({
      timestamp: T,
      eventType: "case.updated",
      secretIndex: 0,
    });
  });

  it("accepts the body as bytes", () => {
    expect(verifyWebhook(Buffer.from(BODY), headersFor(), SECRET, { now: T }).secretIndex).toBe(0);
    expect(verifyWebhook(new TextEncoder().encode(BODY), headersFor(), SECRET, { now: T }).secretIndex).toBe(
      0,
    );
  });

  it("accepts web Headers (case-insensitive by nature)", () => {
    const h = new Headers({
      "X-Service-Signature": sign(BODY, T),
      "X-Service-Timestamp": String(T),
      "X-Service-Event": "case.updated",
    });
    expect(verifyWebhook(BODY, h, SECRET, { now: T }).eventType).toBe("case.updated");
  });

  it("looks up record keys case-insensitively", () => {
    const h = { "X-SERVICE-SIGNATURE": sign(BODY, T), "x-Service-Timestamp": String(T), "Content-Type": "x" };
    expect(verifyWebhook(BODY, h, SECRET, { now: T })).toEqual({
      timestamp: T,
      eventType: undefined,
      secretIndex: 0,
    });
  });

  it("accepts Node's IncomingHttpHeaders as parsed from the wire", () => {
    const req = new IncomingMessage(new Socket());
    req.headers = { host: "127.0.0.1", ...headersFor(), "set-cookie": ["a=b"] };
    expect(verifyWebhook(BODY, req.headers, SECRET, { now: T }).timestamp).toBe(T);
  });

  it("accepts a one-element array value", () => {
    const h = { ...headersFor(), "x-service-signature": [sign(BODY, T)] };
    expect(verifyWebhook(BODY, h, SECRET, { now: T }).secretIndex).toBe(0);
  });

  it("accepts an upper-case hex signature and surrounding whitespace (RFC 9110 §5.5)", () => {
    const h = { "x-service-signature": ` ${sign(BODY, T).toUpperCase()} `, "x-service-timestamp": `\t${T} ` };
    expect(verifyWebhook(BODY, h, SECRET, { now: T }).timestamp).toBe(T);
  });

  it("supports rotation: any of several secrets, reporting which one matched", () => {
    expect(
      verifyWebhook(BODY, headersFor(BODY, T, OLD_SECRET), [SECRET, OLD_SECRET], { now: T }).secretIndex,
    ).toBe(1);
    expect(
      verifyWebhook(BODY, headersFor(BODY, T, SECRET), [SECRET, OLD_SECRET], { now: T }).secretIndex,
    ).toBe(0);
  });

  it("accepts exactly 300 seconds either way by default", () => {
    expect(verifyWebhook(BODY, headersFor(), SECRET, { now: T + 300 }).timestamp).toBe(T);
    expect(verifyWebhook(BODY, headersFor(), SECRET, { now: T - 300 }).timestamp).toBe(T);
    expect(
      verifyWebhook(BODY, headersFor(), SECRET, { now: new Date((T + 300) * 1000 + 999) }).timestamp,
    ).toBe(T);
  });

  it("uses the system clock by default", () => {
    const now = Math.floor(Date.now() / 1000);
    expect(verifyWebhook(BODY, headersFor(BODY, now), SECRET).timestamp).toBe(now);
  });

  it("honours a custom tolerance and Infinity", () => {
    expect(verifyWebhook(BODY, headersFor(), SECRET, { now: T + 10, toleranceSeconds: 10 }).timestamp).toBe(
      T,
    );
    expect(
      verifyWebhook(BODY, headersFor(), SECRET, { now: T + 1e9, toleranceSeconds: Infinity }).timestamp,
    ).toBe(T);
  });

  it("signs the timestamp text as sent: leading zeros are part of the signed string", () => {
    const h = headersFor(BODY, `0${T}`);
    expect(verifyWebhook(BODY, h, SECRET, { now: T }).timestamp).toBe(T);
  });
});

describe("verifyWebhook: rejecting", () => {
  it("missing_header without a signature or a timestamp", () => {
    const { "x-service-signature": _, ...noSig } = headersFor();
    const { "x-service-timestamp": __, ...noTs } = headersFor();
    expect(codeOf(() => verifyWebhook(BODY, noSig, SECRET, { now: T }))).toBe("missing_header");
    expect(codeOf(() => verifyWebhook(BODY, noTs, SECRET, { now: T }))).toBe("missing_header");
    expect(codeOf(() => verifyWebhook(BODY, {}, SECRET, { now: T }))).toBe("missing_header");
    expect(codeOf(() => verifyWebhook(BODY, new Headers(), SECRET, { now: T }))).toBe("missing_header");
    expect(codeOf(() => verifyWebhook(BODY, { ...headersFor(), "x-service-signature": [] }, SECRET))).toBe(
      "missing_header",
    );
  });

  it("names the missing header", () => {
    try {
      verifyWebhook(BODY, { "x-service-signature": sign(BODY, T) }, SECRET, { now: T });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({
        name: "WebhookVerificationError",
        code: "missing_header",
        status: 400,
        header: "x-service-timestamp",
        message: "Header x-service-timestamp is missing.",
      });
    }
  });

  it.each([
    ["a fraction", "1795255200.5"],
    ["a negative number", "-1795255200"],
    ["milliseconds-size digits beyond 12", "1795255200000"],
    ["an ISO date", "2026-11-21T10:00:00Z"],
    ["an exponent", "1.7e9"],
    ["empty", ""],
  ])("malformed_header for a timestamp that is %s", (_, ts) => {
    const h = { "x-service-signature": sign(BODY, ts), "x-service-timestamp": ts };
    expect(codeOf(() => verifyWebhook(BODY, h, SECRET, { now: T }))).toBe("malformed_header");
  });

  it.each([
    ["63 hex characters", "a".repeat(63)],
    ["65 hex characters", "a".repeat(65)],
    ["a non-hex character at the end", `${"a".repeat(63)}g`],
    ["a non-hex character at the start", `g${"a".repeat(63)}`],
    ["a sha256= prefix", `sha256=${"a".repeat(64)}`],
    ["base64", Buffer.alloc(32, 1).toString("base64")],
    ["empty", ""],
  ])("malformed_header for a signature with %s", (_, sig) => {
    const h = { "x-service-signature": sig, "x-service-timestamp": String(T) };
    expect(codeOf(() => verifyWebhook(BODY, h, SECRET, { now: T }))).toBe("malformed_header");
  });

  it("malformed_header for a header sent twice (array, two spellings, or joined by Headers)", () => {
    const sig = sign(BODY, T);
    expect(
      codeOf(() => verifyWebhook(BODY, { ...headersFor(), "x-service-signature": [sig, sig] }, SECRET)),
    ).toBe("malformed_header");
    expect(
      codeOf(() => verifyWebhook(BODY, { ...headersFor(), "X-Service-Timestamp": String(T) }, SECRET)),
    ).toBe("malformed_header");
    const joined = new Headers(headersFor());
    joined.append("x-service-signature", sig);
    expect(codeOf(() => verifyWebhook(BODY, joined, SECRET, { now: T }))).toBe("malformed_header");
  });

  it("malformed_header, not a TypeError, for header values that are not strings", () => {
    const nullSignature = { ...headersFor(), "x-service-signature": null };
    const numberInArray = { ...headersFor(), "x-service-timestamp": [1] };
    const numberEvent = { ...headersFor(), "x-service-event": 7 };
    for (const h of [nullSignature, numberInArray, numberEvent]) {
      try {
        verifyWebhook(BODY, h as unknown as Record<string, string>, SECRET, { now: T });
        expect.unreachable();
      } catch (error) {
        expect(error).toMatchObject({
          name: "WebhookVerificationError",
          code: "malformed_header",
          status: 400,
        });
      }
    }
  });

  it("property: whatever the header values hold, verification answers or throws a WebhookVerificationError", () => {
    const value = fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 2 }), fc.anything());
    fc.assert(
      fc.property(
        fc.record({ "x-service-signature": value, "X-Service-Timestamp": value, "x-service-event": value }),
        (h) => {
          try {
            verifyWebhook(BODY, h as unknown as Record<string, string>, SECRET, { now: T });
          } catch (error) {
            expect(error).toMatchObject({ name: "WebhookVerificationError", status: 400 });
          }
        },
      ),
    );
  });

  it("signature_mismatch for a tampered body, timestamp, secret or signature", () => {
    const h = headersFor();
    expect(
      codeOf(() => verifyWebhook(BODY.replace("case.updated", "case.closed"), h, SECRET, { now: T })),
    ).toBe("signature_mismatch");
    expect(
      codeOf(() => verifyWebhook(BODY, { ...h, "x-service-timestamp": String(T + 1) }, SECRET, { now: T })),
    ).toBe("signature_mismatch");
    expect(codeOf(() => verifyWebhook(BODY, h, "whsec_wrong", { now: T }))).toBe("signature_mismatch");
    expect(codeOf(() => verifyWebhook(BODY, h, [OLD_SECRET, "whsec_other"], { now: T }))).toBe(
      "signature_mismatch",
    );
    const flipped =
      (h["x-service-signature"].startsWith("0") ? "1" : "0") + h["x-service-signature"].slice(1);
    expect(
      codeOf(() => verifyWebhook(BODY, { ...h, "x-service-signature": flipped }, SECRET, { now: T })),
    ).toBe("signature_mismatch");
  });

  it("signature_mismatch for a re-serialised body (the common receiver mistake)", () => {
    const pretty = '{\n  "id": "evt_1",\n  "reference": "Café"\n}\n';
    const h = headersFor(pretty);
    expect(verifyWebhook(pretty, h, SECRET, { now: T }).secretIndex).toBe(0);
    const reserialised = JSON.stringify(JSON.parse(pretty));
    expect(codeOf(() => verifyWebhook(reserialised, h, SECRET, { now: T }))).toBe("signature_mismatch");
  });

  it("timestamp_out_of_tolerance beyond 300 s either way, only after the signature checked out", () => {
    expect(codeOf(() => verifyWebhook(BODY, headersFor(), SECRET, { now: T + 301 }))).toBe(
      "timestamp_out_of_tolerance",
    );
    expect(codeOf(() => verifyWebhook(BODY, headersFor(), SECRET, { now: T - 301 }))).toBe(
      "timestamp_out_of_tolerance",
    );
    expect(codeOf(() => verifyWebhook(BODY, headersFor(), SECRET, { now: new Date((T + 301) * 1000) }))).toBe(
      "timestamp_out_of_tolerance",
    );
    expect(
      codeOf(() => verifyWebhook(BODY, headersFor(), SECRET, { now: T + 11, toleranceSeconds: 10 })),
    ).toBe("timestamp_out_of_tolerance");
    // A forged and stale delivery is reported as forged.
    expect(codeOf(() => verifyWebhook(BODY, headersFor(), "whsec_wrong", { now: T + 10_000 }))).toBe(
      "signature_mismatch",
    );
  });

  it("property: any change to the body is rejected", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 200 }),
        fc.string({ unit: "grapheme", minLength: 1 }),
        (body, extra) => {
          const h = headersFor(body);
          expect(verifyWebhook(body, h, SECRET, { now: T }).secretIndex).toBe(0);
          expect(codeOf(() => verifyWebhook(body + extra, h, SECRET, { now: T }))).toBe("signature_mismatch");
        },
      ),
    );
  });
});

describe("verifyWebhook: caller errors are invalid_argument, not a rejected delivery", () => {
  it.each([
    ["an empty secret", () => verifyWebhook(BODY, headersFor(), "")],
    ["no secrets", () => verifyWebhook(BODY, headersFor(), [])],
    ["an empty secret in the list", () => verifyWebhook(BODY, headersFor(), [SECRET, ""])],
    ["a parsed body", () => verifyWebhook(JSON.parse(BODY) as string, headersFor(), SECRET)],
    ["a negative tolerance", () => verifyWebhook(BODY, headersFor(), SECRET, { toleranceSeconds: -1 })],
    ["a NaN tolerance", () => verifyWebhook(BODY, headersFor(), SECRET, { toleranceSeconds: Number.NaN })],
    ["an invalid Date", () => verifyWebhook(BODY, headersFor(), SECRET, { now: new Date("x") })],
    ["no headers", () => verifyWebhook(BODY, null as unknown as Headers, SECRET)],
  ])("%s", (_, fn) => {
    try {
      fn();
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(TypeError);
      expect(error).toMatchObject({ name: "WebhookArgumentError", code: "invalid_argument" });
    }
  });
});
