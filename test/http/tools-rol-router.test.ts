import { lookupRolRouter } from "@incasso/rol-router";
import { fixtureApi, type RunningTransport, responseValidator, transports } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const api = fixtureApi({ tools: { rolRouter: { rateLimit: { perMinute: 1000 } } } });
const check = responseValidator(api.openapi());
const post = (body: unknown) => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: typeof body === "string" ? body : JSON.stringify(body),
});
// The fixture API's clock stands at 2026-11-21.
const expected = (request: Record<string, string>) =>
  lookupRolRouter(request as never, { today: "2026-11-21" });

describe.each(transports)("POST /tools/rol-router over $name", (transport) => {
  let t: RunningTransport;
  beforeAll(async () => {
    t = await transport.start(api);
  });
  afterAll(() => t.close());

  it("answers a known place with court and hearing days, exactly as the library does", async () => {
    const request = { woonplaats: "Assen", naam: "Van der Berg B.V." };
    const res = await t.request("/tools/rol-router", post(request));
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-limit")).toBe("1000");
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual(expected(request));
    expect(body).toMatchObject({
      object: "rol_router_result",
      status: "ok",
      gemeente: "Assen",
      maatgevende_letter: "B",
    });
    check("/tools/rol-router", "post", 200, body);
  });

  it("answers ambiguous, not_found and incomplete with 200 and the status in the body", async () => {
    for (const [request, status] of [
      [{ woonplaats: "Hengelo", naam: "Jansen" }, "ambiguous"],
      [{ woonplaats: "Amsterdm", naam: "Jansen" }, "not_found"],
      [{ woonplaats: "Hengelo", naam: "Jansen", provincie: "Gelderland" }, "incomplete"],
    ] as const) {
      const res = await t.request("/tools/rol-router", post(request));
      expect(res.status).toBe(200);
      const body = (await res.json()) as { status: string };
      expect(body.status).toBe(status);
      expect(body).toEqual(expected(request));
      check("/tools/rol-router", "post", 200, body);
    }
  });

  it("reports invalid fields in errors[] and tolerates unknown ones", async () => {
    const res = await t.request(
      "/tools/rol-router",
      post({ naam: 5, betekeningsdatum: "21-11-2026", extra: 1 }),
    );
    expect(res.status).toBe(422);
    const body = (await res.json()) as { code: string; errors: { field: string; code: string }[] };
    expect(body.code).toBe("validation_error");
    expect(body.errors.map((e) => e.field)).toEqual(["woonplaats", "naam", "betekeningsdatum"]);
    expect(body.errors[0]?.code).toBe("required");
    check("/tools/rol-router", "post", 422, body);
  });

  it("refuses an unpaired surrogate in a text field with 422 invalid_character, like every body", async () => {
    const res = await t.request("/tools/rol-router", post({ woonplaats: "Assen\ud800", naam: "\udfffB.V." }));
    expect(res.status).toBe(422);
    const body = (await res.json()) as { code: string; errors: { field: string; code: string }[] };
    expect(body.code).toBe("validation_error");
    expect(body.errors.map((e) => [e.field, e.code])).toEqual([
      ["woonplaats", "invalid_character"],
      ["naam", "invalid_character"],
    ]);
    check("/tools/rol-router", "post", 422, body);
  });

  it("answers 415 for a non-JSON body and 400 for broken JSON", async () => {
    const text = await t.request("/tools/rol-router", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "Assen",
    });
    expect(text.status).toBe(415);
    const broken = await t.request("/tools/rol-router", post('{"woonplaats": "Assen"'));
    expect([broken.status, ((await broken.json()) as { code: string }).code]).toEqual([400, "invalid_json"]);
  });
});

describe("the per-IP limit of POST /tools/rol-router", () => {
  it("is separate from the WIK tool's and answers 429 past its limit", async () => {
    const limited = fixtureApi({ tools: { rolRouter: { rateLimit: { perMinute: 1 } } } });
    const send = (path: string, body: unknown) =>
      limited.fetch(new Request(`http://x/api/v1${path}`, post(body)), { clientIp: "198.51.100.7" });
    expect((await send("/tools/rol-router", { woonplaats: "Assen", naam: "Jansen" })).status).toBe(200);
    const second = await send("/tools/rol-router", { woonplaats: "Assen", naam: "Jansen" });
    expect(second.status).toBe(429);
    expect(await second.json()).toMatchObject({ code: "rate_limited" });
    expect((await send("/tools/wik", { amount_cents: 100 })).status).toBe(200);
  });
});
