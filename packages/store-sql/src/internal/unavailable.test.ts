import { isStoreUnavailable, type StoreUnavailableError } from "@incasso/core";
import { describe, expect, it } from "vitest";
import { isConnectionFailure, unavailableOr } from "./unavailable.js";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("isConnectionFailure", () => {
  it.each([
    ["refused", withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED")],
    ["reset", withCode("read ECONNRESET", "ECONNRESET")],
    ["timed out", withCode("connect ETIMEDOUT", "ETIMEDOUT")],
    ["broken pipe", withCode("write EPIPE", "EPIPE")],
    ["no such host", withCode("getaddrinfo ENOTFOUND db", "ENOTFOUND")],
    ["connection exception 08006", withCode("connection failure", "08006")],
    ["admin shutdown 57P01", withCode("terminating connection due to administrator command", "57P01")],
    ["starting up 57P03", withCode("the database system is starting up", "57P03")],
    ["too many connections 53300", withCode("sorry, too many clients already", "53300")],
    ["pg: terminated", new Error("Connection terminated unexpectedly")],
    ["PgBouncer: client limit 08P01", withCode("no more connections allowed (max_client_conn)", "08P01")],
    ["PgBouncer: pool wait", withCode("query_wait_timeout", "08P01")],
    ["PgBouncer: server gone", withCode("server conn crashed?", "08P01")],
    ["PgBouncer: cannot reach the server", withCode("pgbouncer cannot connect to server", "08P01")],
    [
      "a pooler's client limit under another code",
      withCode("no more connections allowed (max_db_connections)", "XX000"),
    ],
    ["pg-pool: connect timeout", new Error("timeout exceeded when trying to connect")],
    ["pg-pool: ended", new Error("Cannot use a pool after calling end on the pool")],
    // Decision store-timeouts-and-keepalive: no answer in time is the database out of reach.
    ["pg: query time-out", new Error("Query read timeout")],
    ["statement timeout 57014", withCode("canceling statement due to statement timeout", "57014")],
    ["PGlite closed", new Error("PGlite is closed")],
    [
      "PGlite abort",
      Object.assign(new Error("Aborted(). Build with -sASSERTIONS for more info."), { name: "RuntimeError" }),
    ],
    [
      "every address refused",
      new AggregateError([withCode("a", "ECONNREFUSED"), withCode("b", "ECONNREFUSED")]),
    ],
  ])("%s: the database is out of reach", (_name, error) => {
    expect(isConnectionFailure(error)).toBe(true);
  });

  it.each([
    ["unique violation 23505", withCode("duplicate key value violates unique constraint", "23505")],
    ["syntax error 42601", withCode("syntax error at or near", "42601")],
    ["serialization failure 40001", withCode("could not serialize access", "40001")],
    ["a plain bug", new TypeError("Cannot read properties of undefined")],
    [
      "input quoting a pooler's words 22P02",
      withCode('invalid input syntax for type integer: "query_wait_timeout"', "22P02"),
    ],
    ["a statement name clash 42P05", withCode('prepared statement "incasso_3" already exists', "42P05")],
    ["not an error", "ECONNREFUSED"],
    ["null", null],
  ])("%s: not a connection failure", (_name, error) => {
    expect(isConnectionFailure(error)).toBe(false);
  });
});

describe("unavailableOr", () => {
  it("wraps a connection failure in a StoreUnavailableError with the driver's error as cause", () => {
    const cause = withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED");
    const wrapped = unavailableOr(cause) as StoreUnavailableError;
    expect(wrapped).toMatchObject({
      name: "StoreUnavailableError",
      code: "store_unavailable",
      retryAfterSeconds: 5,
      message: "The database is out of reach: connect ECONNREFUSED 127.0.0.1:5432",
    });
    expect(wrapped.cause).toBe(cause);
    expect(isStoreUnavailable(wrapped)).toBe(true);
    // Wrapped once only.
    expect(unavailableOr(wrapped)).toBe(wrapped);
  });

  it("returns any other error unchanged", () => {
    const constraint = withCode("duplicate key", "23505");
    expect(unavailableOr(constraint)).toBe(constraint);
  });
});
