import { describe, expect, it } from "vitest";
import { databaseTimeouts } from "./database-timeouts.js";

describe("databaseTimeouts", () => {
  it("reads each flag in seconds, as milliseconds", () => {
    expect(
      databaseTimeouts(
        {
          "database-connect-timeout": "2",
          "database-query-timeout": "1.5",
          "database-statement-timeout": "8",
          "database-keepalive": "15",
        },
        {},
      ),
    ).toEqual({
      connectionTimeoutMs: 2000,
      queryTimeoutMs: 1500,
      statementTimeoutMs: 8000,
      keepAliveIdleMs: 15000,
    });
  });

  it("takes a variable where its flag is not given; the flag wins", () => {
    const env = { INCASSO_DATABASE_QUERY_TIMEOUT: "4", INCASSO_DATABASE_KEEPALIVE: "60" };
    expect(databaseTimeouts({ "database-query-timeout": "3" }, env)).toEqual({
      queryTimeoutMs: 3000,
      keepAliveIdleMs: 60000,
    });
  });

  it("leaves out what is not set, so the store's defaults apply", () => {
    expect(databaseTimeouts({}, { INCASSO_DATABASE_QUERY_TIMEOUT: " " })).toEqual({});
  });

  it("takes 0 as off for the query and statement time-outs only", () => {
    expect(
      databaseTimeouts({ "database-query-timeout": "0", "database-statement-timeout": "0" }, {}),
    ).toEqual({
      queryTimeoutMs: 0,
      statementTimeoutMs: 0,
    });
    expect(() => databaseTimeouts({ "database-connect-timeout": "0" }, {})).toThrow(
      "--database-connect-timeout (INCASSO_DATABASE_CONNECT_TIMEOUT) must be a number of seconds above 0, not 0",
    );
    expect(() => databaseTimeouts({}, { INCASSO_DATABASE_KEEPALIVE: "0" })).toThrow(
      "--database-keepalive (INCASSO_DATABASE_KEEPALIVE) must be a number of seconds above 0, not 0",
    );
  });

  it.each(["-1", "ten", "1e3", "2.5555", "100000"])(
    "refuses %s, naming the flag and its variable",
    (value) => {
      expect(() => databaseTimeouts({ "database-query-timeout": value }, {})).toThrow(
        `--database-query-timeout (INCASSO_DATABASE_QUERY_TIMEOUT) must be a number of seconds (0 = off), not ${value}`,
      );
    },
  );
});
