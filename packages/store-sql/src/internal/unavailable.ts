import { StoreUnavailableError } from "@incasso/core";

/** Socket errors of a connection that could not be made or was lost (Node's `code`). */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * SQLSTATEs that say the server is not there for us now (PostgreSQL Appendix A): class 08
 * (connection exception), 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now
 * (starting up or in recovery), 53300 too_many_connections, 57014 query_canceled (the session's
 * statement_timeout ran out: the server did not answer in time). A statement the server refused for
 * what it is (a constraint, a syntax error) is none of these and stays what it is.
 */
const UNAVAILABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300", "57014"]);

/** What `pg` and `pg-pool` throw themselves when the connection is gone or cannot be had. */
const DRIVER_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error and is not queryable",
  "Connection ended",
  // pg's query_timeout: no answer in time; the connection it was sent on is destroyed.
  "Query read timeout",
  // The pool of a store being closed (a graceful stop) while requests still arrive.
  "Cannot use a pool after calling end on the pool",
];

/**
 * What a connection pooler answers when it has no server connection for us now (PgBouncer's
 * messages; it sends them as SQLSTATE 08P01, which class 08 covers already, but other poolers and
 * versions use other codes, so the text decides too). Decision store-connection-poolers.
 */
const POOLER_MESSAGES = [
  "no more connections allowed",
  "query_wait_timeout",
  "server conn crashed?",
  "pgbouncer cannot connect to server",
  "server login has been failing",
  "client_login_timeout",
  "server_connect_timeout",
];

/** What PGlite throws once its engine has stopped (closed, closing, or the WebAssembly aborted). */
const PGLITE_MESSAGES = ["PGlite is closed", "PGlite is closing"];

/**
 * Whether a driver error means the database is out of reach rather than that the statement is
 * wrong (decision store-unavailable-503).
 *
 * @example
 * isConnectionFailure(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })); // true
 * isConnectionFailure(Object.assign(new Error("duplicate key"), { code: "23505" })); // false
 */
export function isConnectionFailure(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message, name } = error as { code?: unknown; message?: unknown; name?: unknown };
  if (typeof code === "string") {
    if (SOCKET_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))
      return true;
  }
  const text = typeof message === "string" ? message : "";
  if (DRIVER_MESSAGES.some((m) => text.startsWith(m))) return true;
  if (PGLITE_MESSAGES.some((m) => text.startsWith(m))) return true;
  // At the start only: a statement's own error may quote its input (22P02 `invalid input syntax …:
  // "query_wait_timeout"`), which must stay the client's error, not a 503.
  if (POOLER_MESSAGES.some((m) => text.startsWith(m))) return true;
  // A WebAssembly trap or abort in PGlite's engine: it cannot answer any statement after it.
  if (name === "RuntimeError" || text.startsWith("Aborted(")) return true;
  // An AggregateError (a host name with several addresses, each refused) carries the causes.
  const errors = (error as { errors?: unknown }).errors;
  return Array.isArray(errors) && errors.length > 0 && errors.every(isConnectionFailure);
}

/**
 * The error to throw for a failed database call: a {@link StoreUnavailableError} (with the driver's
 * error as its cause) when the database is out of reach, the error itself otherwise.
 *
 * @example
 * try { return await pool.query(text, params); } catch (error) { throw unavailableOr(error); }
 */
export function unavailableOr(error: unknown): unknown {
  if ((error as { isIncassoStoreUnavailable?: unknown } | null)?.isIncassoStoreUnavailable === true)
    return error;
  if (!isConnectionFailure(error)) return error;
  return new StoreUnavailableError(
    `The database is out of reach: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error },
  );
}
