import { deflateSync } from "node:zlib";
import { fixtureApi, type RunningTransport, responseValidator, transports } from "@incasso/test-utils";
import { calculateWik } from "@incasso/wik";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const api = fixtureApi({ tools: { wik: { rateLimit: { perMinute: 1000 } } } });
const check = responseValidator(api.openapi());
const json = (body: unknown) => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

describe.each(transports)("POST /tools/wik over $name", (transport) => {
  let t: RunningTransport;
  beforeAll(async () => {
    t = await transport.start(api);
  });
  afterAll(() => t.close());

  it("computes costs on the BIK scale without interest when no due date is given", async () => {
    const res = await t.request("/tools/wik", json({ amount_cents: 100_000 }));
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-limit")).toBe("1000");
    expect(Number(res.headers.get("ratelimit-remaining"))).toBeLessThan(1000);
    expect(Number(res.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      object: "wik_calculation",
      debtor_type: "consumer",
      principal_amount_cents: 100_000,
      collection_costs_cents: 15_000,
      collection_costs_vat_cents: 0,
      total_amount_cents: 115_000,
    });
    expect(body.interest).toMatchObject({ amount_cents: 0, days: 0 });
    check("/tools/wik", "post", 200, body);
  });

  it("adds 21% VAT and interest up to the API's today, exactly as the library does", async () => {
    const request = {
      amount_cents: 1_250_000,
      debtor_type: "business",
      due_date: "2024-02-29",
      include_vat: true,
    };
    const res = await t.request("/tools/wik", json({ ...request, unknown_field: "tolerated" }));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual(calculateWik(request as never, { today: "2026-11-21" }));
    expect(body).toMatchObject({ collection_costs_cents: 90_000, collection_costs_vat_cents: 18_900 });
  });

  it("reports every invalid field in errors[]", async () => {
    const res = await t.request(
      "/tools/wik",
      json({ amount_cents: 0, debtor_type: "company", due_date: "2025-02-30", include_vat: "yes" }),
    );
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body = (await res.json()) as { code: string; errors: { field: string; code: string }[] };
    expect(body.code).toBe("validation_error");
    expect(body.errors.map((e) => [e.field, e.code])).toEqual([
      ["amount_cents", "too_small"],
      ["debtor_type", "invalid_value"],
      ["due_date", "invalid_format"],
      ["include_vat", "invalid_type"],
    ]);
    check("/tools/wik", "post", 422, body);
  });

  it("requires amount_cents as an integer", async () => {
    const missing = (await (await t.request("/tools/wik", json({}))).json()) as { errors: unknown[] };
    expect(missing.errors).toEqual([{ field: "amount_cents", code: "required", message: "is required" }]);
    const fraction = (await (await t.request("/tools/wik", json({ amount_cents: 10.5 }))).json()) as {
      errors: { field: string; code: string }[];
    };
    expect(fraction.errors.map((e) => [e.field, e.code])).toEqual([["amount_cents", "not_integer"]]);
  });

  it("answers 415, 400 invalid_json and 400 empty_body", async () => {
    const form = await t.request("/tools/wik", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "amount_cents=1",
    });
    expect([form.status, ((await form.json()) as { code: string }).code]).toEqual([
      415,
      "unsupported_media_type",
    ]);
    const bad = await t.request("/tools/wik", json("{amount_cents:1"));
    expect([bad.status, ((await bad.json()) as { code: string }).code]).toEqual([400, "invalid_json"]);
    const empty = await t.request("/tools/wik", json(""));
    expect([empty.status, ((await empty.json()) as { code: string }).code]).toEqual([400, "empty_body"]);
    expect(empty.headers.get("ratelimit-limit")).toBe("1000");
  });

  it("answers 415 for a compressed body and for a charset other than UTF-8", async () => {
    const body = JSON.stringify({ amount_cents: 100_000 });
    const deflated = await t.request("/tools/wik", {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "deflate" },
      body: deflateSync(body),
    });
    expect(deflated.status).toBe(415);
    expect(deflated.headers.get("accept-encoding")).toBe("identity");
    expect(await deflated.json()).toMatchObject({
      code: "unsupported_media_type",
      detail: "Content-Encoding deflate is not accepted: send the body uncompressed (identity).",
    });
    const utf16 = await t.request("/tools/wik", {
      method: "POST",
      headers: { "content-type": "application/json; charset=UTF-16LE" },
      body: Buffer.from(body, "utf16le"),
    });
    expect(utf16.status).toBe(415);
    expect(await utf16.json()).toMatchObject({
      code: "unsupported_media_type",
      detail:
        "Content-Type must be application/json in UTF-8 (charset=utf-8 or none), not application/json; charset=UTF-16LE.",
    });
  });

  it("refuses a due date before the bundled rate table with 422 on due_date", async () => {
    const res = await t.request("/tools/wik", json({ amount_cents: 1000, due_date: "1990-01-01" }));
    expect(res.status).toBe(422);
    const body = (await res.json()) as { errors: { field: string; code: string }[] };
    expect(body.errors.map((e) => [e.field, e.code])).toEqual([["due_date", "date_before_rate_table"]]);
  });
});

describe("the per-IP limit of POST /tools/wik", () => {
  it("answers 429 rate_limited with Retry-After once the minute's limit is used", async () => {
    const limited = fixtureApi({ tools: { wik: { rateLimit: { perMinute: 2 } } } });
    const send = (ip: string) =>
      limited.fetch(new Request("http://x/api/v1/tools/wik", json({ amount_cents: 5000 })), { clientIp: ip });
    expect((await send("192.0.2.1")).status).toBe(200);
    const second = await send("192.0.2.1");
    expect([second.status, second.headers.get("ratelimit-remaining")]).toEqual([200, "0"]);
    const third = await send("192.0.2.1");
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBe(third.headers.get("ratelimit-reset"));
    expect(third.headers.get("ratelimit-limit")).toBe("2");
    expect(third.headers.get("ratelimit-remaining")).toBe("0");
    expect(await third.json()).toMatchObject({ status: 429, code: "rate_limited" });
    // Another IP has its own bucket.
    expect((await send("192.0.2.2")).status).toBe(200);
  });
});
