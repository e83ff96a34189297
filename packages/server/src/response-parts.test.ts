import { describe, expect, it } from "vitest";
import { createApi } from "./create-api.js";
import { responseParts } from "./response-parts.js";

describe("responseParts", () => {
  const api = createApi({ publicOnly: true, now: () => new Date("2026-11-25T12:00:00.000Z") });

  it("gives the parts of a route's JSON answer, the same as the Response says", async () => {
    const response = await api.fetch(
      new Request("http://x/api/v1/ping", { headers: { "x-request-id": "req-parts-1" } }),
    );
    const parts = responseParts(response);
    expect(parts).toEqual({
      status: 200,
      headers: [
        ["content-type", "application/json; charset=utf-8"],
        ["x-request-id", "req-parts-1"],
        ["x-content-type-options", "nosniff"],
      ],
      body: await response.clone().text(),
    });
    expect([...response.headers]).toEqual([
      ["content-type", "application/json; charset=utf-8"],
      ["x-content-type-options", "nosniff"],
      ["x-request-id", "req-parts-1"],
    ]);
  });

  it("has none for an answer that is not a route's JSON value, which is then read the standard way", async () => {
    const missing = await api.fetch(new Request("http://x/api/v1/nowhere"));
    expect(missing.status).toBe(404);
    expect(responseParts(missing)).toBeUndefined();
    expect(responseParts(new Response("plain"))).toBeUndefined();
  });
});
