/**
 * The time-outs and the connection health of a PostgreSQL store (decision
 * store-timeouts-and-keepalive), as openStore takes them. Each is left out when not set, so the
 * store's default applies.
 *
 * @example
 * const timeouts: DatabaseTimeouts = { queryTimeoutMs: 2000, connectionTimeoutMs: 2000 };
 */
export interface DatabaseTimeouts {
  /** How long a request waits for a connection; default 5000. */
  connectionTimeoutMs?: number;
  /** How long a statement waits for its answer before its connection is closed; default 10000; 0 = off. */
  queryTimeoutMs?: number;
  /** PostgreSQL's statement_timeout, sent at connect; default 0 (the server's). */
  statementTimeoutMs?: number;
  /** Idle time before TCP keep-alive probes; default 30000. */
  keepAliveIdleMs?: number;
}

// Each setting: its variable (the CLI's flag has the same name in lower case without INCASSO_),
// the option it sets, and whether 0 (off) is allowed.
const SETTINGS: readonly {
  flag: string;
  variable: string;
  option: keyof DatabaseTimeouts;
  zeroIsOff: boolean;
}[] = [
  {
    flag: "database-connect-timeout",
    variable: "INCASSO_DATABASE_CONNECT_TIMEOUT",
    option: "connectionTimeoutMs",
    zeroIsOff: false,
  },
  {
    flag: "database-query-timeout",
    variable: "INCASSO_DATABASE_QUERY_TIMEOUT",
    option: "queryTimeoutMs",
    zeroIsOff: true,
  },
  {
    flag: "database-statement-timeout",
    variable: "INCASSO_DATABASE_STATEMENT_TIMEOUT",
    option: "statementTimeoutMs",
    zeroIsOff: true,
  },
  {
    flag: "database-keepalive",
    variable: "INCASSO_DATABASE_KEEPALIVE",
    option: "keepAliveIdleMs",
    zeroIsOff: false,
  },
];

/** Seconds, with up to three decimals (milliseconds), at most a day. */
const SECONDS = /^[0-9]{1,5}(\.[0-9]{1,3})?$/;

/**
 * The PostgreSQL time-outs from flag values (`database-query-timeout`, …) or, for each one not
 * given, its INCASSO_DATABASE_* variable; in seconds, converted to milliseconds.
 *
 * @throws {RangeError} for a value that is not a number of seconds, naming the flag and variable
 * @example
 * databaseTimeouts({ "database-query-timeout": "2" }, {}); // { queryTimeoutMs: 2000 }
 * databaseTimeouts({}, { INCASSO_DATABASE_KEEPALIVE: "15" }); // { keepAliveIdleMs: 15000 }
 */
export function databaseTimeouts(
  values: Record<string, string | boolean | undefined>,
  env: Record<string, string | undefined>,
): DatabaseTimeouts {
  const timeouts: DatabaseTimeouts = {};
  for (const { flag, variable, option, zeroIsOff } of SETTINGS) {
    const given = values[flag] ?? env[variable];
    if (typeof given !== "string" || given.trim() === "") continue;
    const text = given.trim();
    const ms = SECONDS.test(text) ? Math.round(Number(text) * 1000) : Number.NaN;
    if (!(ms > 0 || (ms === 0 && zeroIsOff)) || ms > 86_400_000) {
      throw new RangeError(
        `--${flag} (${variable}) must be a number of seconds${zeroIsOff ? " (0 = off)" : " above 0"}, not ${given}`,
      );
    }
    timeouts[option] = ms;
  }
  return timeouts;
}
