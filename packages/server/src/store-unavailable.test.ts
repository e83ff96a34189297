import { issueApiKey, OrderEngineError, StoreUnavailableError } from "@incasso/core";
import { openStore } from "@incasso/store-sql";
import { describe, expect, it } from "vitest";
import { isApiError } from "./api-error.js";
import { createApi } from "./create-api.js";
import { toApiError } from "./to-api-error.js";

describe("a store out of reach", () => {
  it("maps to 503 service_unavailable with Retry-After, also behind a case system's 502", () => {
    const store = new StoreUnavailableError("The database is out of reach: read ECONNRESET");
    for (const mapped of [
      toApiError(store),
      toApiError(new Error("wrapped", { cause: store })),
      toApiError(new OrderEngineError("upstream_error", "case system failed", { cause: store })),
    ]) {
      expect(isApiError(mapped)).toBe(true);
      expect(mapped).toMatchObject({
        status: 503,
        code: "service_unavailable",
        headers: { "Retry-After": "5" },
        detail:
          "The service cannot reach its database right now. Retry in 5 s; send a POST again with the same Idempotency-Key.",
      });
    }
    // A case system that failed for another reason stays a 502.
    expect(toApiError(new OrderEngineError("upstream_error", "no"))).toMatchObject({
      status: 502,
    });
    const bug = new TypeError("x is undefined");
    expect(toApiError(bug)).toBe(bug);
  });

  it("an embedded engine that stopped answers 503 problem+json, not 500", { timeout: 60_000 }, async () => {
    const store = await openStore();
    const { key } = await issueApiKey(store, { organisation: "Gone BV", mode: "test" });
    const api = createApi({ store, orders: false, logger: { info() {}, warn() {}, error() {} } });
    await store.close();
    // A key the cache has not seen: its lookup meets the stopped engine.
    const res = await api.fetch(
      new Request("http://x/api/v1/ping", { headers: { authorization: `Bearer ${key}` } }),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toMatchObject({ status: 503, code: "service_unavailable" });
  });
});
