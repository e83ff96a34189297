import { describe, expect, it } from "vitest";
import { serveBodyBudget, serveLimits } from "./serve-limits.js";

describe("serveLimits: the connection limits of incasso serve", () => {
  it("reads each flag in its unit: seconds become ms, a rate and a count stay as they are", () => {
    expect(
      serveLimits(
        {
          "headers-timeout": "15",
          "request-timeout": "900",
          "min-body-rate": "4096",
          "body-grace": "20",
          "max-connections": "250",
        },
        {},
      ),
    ).toEqual({
      headersTimeoutMs: 15_000,
      requestTimeoutMs: 900_000,
      minBodyBytesPerSecond: 4096,
      bodyGraceMs: 20_000,
      maxConnections: 250,
    });
  });

  it("falls back to the INCASSO_* variables, and the flag wins over its variable", () => {
    const env = {
      INCASSO_HEADERS_TIMEOUT: "30",
      INCASSO_REQUEST_TIMEOUT: "1200",
      INCASSO_MIN_BODY_RATE: "0",
      INCASSO_BODY_GRACE: "5",
      INCASSO_MAX_CONNECTIONS: "100",
    };
    expect(serveLimits({ "max-connections": "7" }, env)).toEqual({
      headersTimeoutMs: 30_000,
      requestTimeoutMs: 1_200_000,
      minBodyBytesPerSecond: 0,
      bodyGraceMs: 5_000,
      maxConnections: 7,
    });
  });

  it("leaves out what is not set, so the server's defaults apply", () => {
    expect(serveLimits({}, { INCASSO_MAX_CONNECTIONS: "" })).toEqual({});
  });

  it("refuses values that are not whole numbers, with the flag named", () => {
    expect(() => serveLimits({ "headers-timeout": "0" }, {})).toThrow(
      "--headers-timeout must be a positive whole number of seconds, not 0",
    );
    expect(() => serveLimits({}, { INCASSO_MAX_CONNECTIONS: "-1" })).toThrow(
      "--max-connections must be a positive integer, not -1",
    );
    expect(() => serveLimits({ "min-body-rate": "1.5" }, {})).toThrow(
      "--min-body-rate must be a whole number of bytes per second (0 = off), not 1.5",
    );
  });
});

describe("serveBodyBudget: the body budget of incasso serve", () => {
  it("reads MiB from the flag, else INCASSO_BODY_BUDGET, else leaves the default", () => {
    expect(serveBodyBudget({ "body-budget": "512" }, { INCASSO_BODY_BUDGET: "64" })).toBe(512 * 1024 * 1024);
    expect(serveBodyBudget({}, { INCASSO_BODY_BUDGET: "64" })).toBe(64 * 1024 * 1024);
    expect(serveBodyBudget({}, {})).toBeUndefined();
  });

  it("refuses what is not a positive whole number of MiB", () => {
    expect(() => serveBodyBudget({ "body-budget": "0" }, {})).toThrow(
      "--body-budget must be a positive whole number of MiB, not 0",
    );
    expect(() => serveBodyBudget({}, { INCASSO_BODY_BUDGET: "1.5" })).toThrow("not 1.5");
  });
});
