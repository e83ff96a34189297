/**
 * Test vectors computed independently of the code under test (spec, Events: X-Service-Signature
 * is the hex HMAC-SHA256 of timestamp + "." + raw body, keyed with the signing secret).
 *
 * Three independent sources:
 * 1. OpenSSL, run once by hand on the checked-in fixture and pasted here as literals:
 *
 *      cd packages/webhook-signing
 *      { printf '1795255200.'; cat fixtures/payment-received.body.txt; } > fixtures/payment-received.signed.txt
 *      openssl dgst -sha256 -hmac 'whsec_fixture_Gé€heim' -r fixtures/payment-received.signed.txt
 *      openssl dgst -sha256 -hmac 'whsec_plain_ascii_secret' -r fixtures/payment-received.signed.txt
 *
 *    (OpenSSL 3.0.19, UTF-8 locale so the secret is passed as its UTF-8 bytes.) The body holds
 *    non-ASCII text (é, –, €, ✓, an emoji, curly quotes), a JSON \u escape, a tab, a CRLF and a
 *    trailing newline; fixtures/.gitattributes keeps git from touching those bytes.
 * 2. node:crypto createHmac over Buffer.concat of the parts, written out here.
 * 3. WebCrypto (crypto.subtle), a separate implementation of HMAC.
 */
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeWebhookSignature } from "./compute-webhook-signature.js";
import { signWebhook } from "./sign-webhook.js";
import { verifyWebhook } from "./verify-webhook.js";

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url));
const FIXTURE_TIMESTAMP = 1795255200; // 2026-11-21T10:00:00Z
const OPENSSL_UTF8_SECRET = "whsec_fixture_Gé€heim";
const OPENSSL_UTF8_SIGNATURE = "aba054f15b4692f3c3ed90ce175eee7733cc9646d1991bda871b5d0d97722082";
const OPENSSL_ASCII_SECRET = "whsec_plain_ascii_secret";
const OPENSSL_ASCII_SIGNATURE = "087c8045b23dbc75d5098a8173b4f3a997e2c1ee3d8567fa0b47d8364d144203";

function reference(timestamp: number, body: string | Uint8Array, secret: string): string {
  const bodyBytes = typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body);
  return createHmac("sha256", Buffer.from(secret, "utf8"))
    .update(Buffer.concat([Buffer.from(`${timestamp}.`, "ascii"), bodyBytes]))
    .digest("hex");
}

async function webCrypto(timestamp: number, body: string, secret: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey(
    "raw",
    enc.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, enc.encode(`${timestamp}.${body}`));
  return Buffer.from(mac).toString("hex");
}

describe("OpenSSL vectors on the checked-in fixture", () => {
  const body = fixture("payment-received.body.txt");

  it("fixture files are byte-exact (signed file = timestamp + '.' + body)", () => {
    expect(body.length).toBe(414);
    expect(
      fixture("payment-received.signed.txt").equals(Buffer.concat([Buffer.from("1795255200."), body])),
    ).toBe(true);
    expect(body.includes(Buffer.from('\t"note"'))).toBe(true);
    expect(body.includes(Buffer.from("\r\n}\n"))).toBe(true);
  });

  it.each([
    ["UTF-8 secret", OPENSSL_UTF8_SECRET, OPENSSL_UTF8_SIGNATURE],
    ["ASCII secret", OPENSSL_ASCII_SECRET, OPENSSL_ASCII_SIGNATURE],
  ])("matches openssl dgst -hmac with a %s, for the body as bytes and as text", (_, secret, expected) => {
    expect(computeWebhookSignature(FIXTURE_TIMESTAMP, body, secret)).toBe(expected);
    expect(computeWebhookSignature(FIXTURE_TIMESTAMP, body.toString("utf8"), secret)).toBe(expected);
  });

  it("verifies the fixture delivery with the openssl signature", () => {
    const headers = {
      "x-service-signature": OPENSSL_UTF8_SIGNATURE,
      "x-service-timestamp": "1795255200",
      "x-service-event": "payment.received",
    };
    expect(verifyWebhook(body, headers, OPENSSL_UTF8_SECRET, { now: FIXTURE_TIMESTAMP + 300 })).toEqual({
      timestamp: FIXTURE_TIMESTAMP,
      eventType: "payment.received",
      secretIndex: 0,
    });
  });
});

describe("node:crypto and WebCrypto vectors", () => {
  const cases: Array<[string, string]> = [
    ["empty body", ""],
    ["ASCII JSON", '{"id":"evt_1","object":"event","type":"ping"}'],
    ["Dutch diacritics", '{"reference":"Één café, één reünie, coöperatie"}'],
    ["euro sign and emoji (4-byte UTF-8)", '{"reference":"€ 125,00 🧾"}'],
    ["right-to-left and combining marks", '{"n":"שלום e\u0301"}'],
    ["pretty-printed with trailing newline", '{\n  "a": 1,\n  "b": [1, 2]\n}\n'],
    ["tabs and CRLF", '{\t"a":\r\n 1 }'],
    ["leading and trailing spaces", '   {"a":1}   '],
  ];

  it.each(cases)("%s: same hex as createHmac and crypto.subtle", async (_, body) => {
    const secret = "whsec_ünïcødé_secret";
    const expected = reference(FIXTURE_TIMESTAMP, body, secret);
    expect(await webCrypto(FIXTURE_TIMESTAMP, body, secret)).toBe(expected);
    expect(computeWebhookSignature(FIXTURE_TIMESTAMP, body, secret)).toBe(expected);
    expect(computeWebhookSignature(FIXTURE_TIMESTAMP, new TextEncoder().encode(body), secret)).toBe(expected);
    expect(signWebhook({ body, secret, timestamp: FIXTURE_TIMESTAMP, eventType: "ping" })).toEqual({
      "X-Service-Signature": expected,
      "X-Service-Timestamp": "1795255200",
      "X-Service-Event": "ping",
    });
  });

  it("whitespace is significant: each variant has its own signature", () => {
    const variants = ['{"a":1}', '{"a": 1}', '{"a":1}\n', ' {"a":1}', '{"a":1}\r\n'];
    const signatures = variants.map((b) => computeWebhookSignature(FIXTURE_TIMESTAMP, b, "s"));
    expect(new Set(signatures).size).toBe(variants.length);
    signatures.forEach((sig, i) => {
      expect(sig).toBe(reference(FIXTURE_TIMESTAMP, variants[i] as string, "s"));
    });
  });

  it("property: any Unicode text body, any secret, any timestamp", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 300 }),
        fc.string({ unit: "grapheme", minLength: 1, maxLength: 100 }),
        fc.integer({ min: 0, max: 99_999_999_999 }),
        (body, secret, timestamp) => {
          expect(computeWebhookSignature(timestamp, body, secret)).toBe(reference(timestamp, body, secret));
        },
      ),
    );
  });

  it("property: any byte body, including invalid UTF-8, signs the bytes as they are", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 500 }), fc.string({ minLength: 1 }), (bytes, secret) => {
        expect(computeWebhookSignature(FIXTURE_TIMESTAMP, bytes, secret)).toBe(
          reference(FIXTURE_TIMESTAMP, bytes, secret),
        );
      }),
    );
  });
});
