import type { FlagSpec } from "./flag-spec.js";

/**
 * The flags of `incasso serve` and `incasso worker` that bound how long the PostgreSQL store waits
 * (decision store-timeouts-and-keepalive), each with its variable; databaseTimeouts reads them.
 * Ignored on the embedded database.
 *
 * @example
 * const SERVE_FLAGS = [...OTHER_FLAGS, ...DATABASE_TIMEOUT_FLAGS];
 */
export const DATABASE_TIMEOUT_FLAGS: readonly FlagSpec[] = [
  {
    name: "database-connect-timeout",
    value: "SEC",
    env: "INCASSO_DATABASE_CONNECT_TIMEOUT",
    defaultText: "5",
    description: "PostgreSQL: wait this long for a connection, else 503",
  },
  {
    name: "database-query-timeout",
    value: "SEC",
    env: "INCASSO_DATABASE_QUERY_TIMEOUT",
    defaultText: "10; 0 = off",
    description: "PostgreSQL: wait this long for a statement's answer, else 503 and the connection is closed",
  },
  {
    name: "database-statement-timeout",
    value: "SEC",
    env: "INCASSO_DATABASE_STATEMENT_TIMEOUT",
    defaultText: "0 = the server's",
    description: "PostgreSQL: the server's statement_timeout for our sessions, sent at connect",
  },
  {
    name: "database-keepalive",
    value: "SEC",
    env: "INCASSO_DATABASE_KEEPALIVE",
    defaultText: "30",
    description: "PostgreSQL: TCP keep-alive probes after this much silence on a connection",
  },
];
