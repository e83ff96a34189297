import { describe, expect, it } from "vitest";
import {
  isStoreUnavailable,
  STORE_RETRY_AFTER_SECONDS,
  StoreUnavailableError,
  storeUnavailableIn,
} from "./store-unavailable.js";

describe("StoreUnavailableError", () => {
  it("carries a stable code, Retry-After seconds and its cause", () => {
    const cause = new Error("read ECONNRESET");
    const error = new StoreUnavailableError("gone", { cause });
    expect({ code: error.code, retry: error.retryAfterSeconds, cause: error.cause }).toEqual({
      code: "store_unavailable",
      retry: STORE_RETRY_AFTER_SECONDS,
      cause,
    });
    expect(STORE_RETRY_AFTER_SECONDS).toBe(5);
    expect(new StoreUnavailableError("gone", { retryAfterSeconds: 2 }).retryAfterSeconds).toBe(2);
  });

  it("is found through a chain of causes (a case system's error wrapped by the engine), by brand", () => {
    const store = new StoreUnavailableError("gone");
    const caseSystem = new Error("could not place", { cause: store });
    const engine = new Error("upstream_error", { cause: caseSystem });
    expect(storeUnavailableIn(engine)).toBe(store);
    expect(isStoreUnavailable(engine)).toBe(true);
    // Another copy of the package: the brand, not the class.
    expect(isStoreUnavailable({ isIncassoStoreUnavailable: true, retryAfterSeconds: 5 })).toBe(true);
    expect(isStoreUnavailable(new Error("other", { cause: new Error("deeper") }))).toBe(false);
    expect(isStoreUnavailable(undefined)).toBe(false);
  });

  it("stops after a bounded depth, so a cyclic chain cannot hang", () => {
    const a: { cause?: unknown } = {};
    a.cause = a;
    expect(isStoreUnavailable(a)).toBe(false);
  });
});
