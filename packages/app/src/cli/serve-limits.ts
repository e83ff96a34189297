import type { ConnectionLimits } from "@incasso/server/node";

/**
 * The flags of `incasso serve` that set the server's connection limits (decision
 * server-slow-clients), in the form `parseArgs` takes.
 *
 * @example
 * parseArgs({ args, options: { ...SERVE_LIMIT_OPTIONS, port: { type: "string" } } });
 */
export const SERVE_LIMIT_OPTIONS = {
  "headers-timeout": { type: "string" },
  "request-timeout": { type: "string" },
  "min-body-rate": { type: "string" },
  "body-grace": { type: "string" },
  "max-connections": { type: "string" },
  "body-budget": { type: "string" },
} as const;

/**
 * The help lines of {@link SERVE_LIMIT_OPTIONS}.
 *
 * @example
 * console.log(SERVE_LIMITS_HELP);
 */
export const SERVE_LIMITS_HELP = `                [--headers-timeout SECONDS] [--request-timeout SECONDS]
                [--min-body-rate BYTES_PER_SECOND] [--body-grace SECONDS]
                [--max-connections N] [--body-budget MIB]
                                        slow clients (docs/operator.md): headers within 20 s,
                                        the whole request within 600 s, a body at 8192 bytes/s
                                        or more after 10 s (0 = no minimum), at most 1000
                                        connections; request bodies in flight up to MIB
                                        (default 160), then 503 with Retry-After
`;

type Unit = "seconds" | "count" | "rate";

// Each flag, its variable, the option it sets and the unit it is given in.
const LIMIT_FLAGS: readonly {
  flag: keyof typeof SERVE_LIMIT_OPTIONS;
  variable: string;
  option: keyof ConnectionLimits;
  unit: Unit;
}[] = [
  {
    flag: "headers-timeout",
    variable: "INCASSO_HEADERS_TIMEOUT",
    option: "headersTimeoutMs",
    unit: "seconds",
  },
  {
    flag: "request-timeout",
    variable: "INCASSO_REQUEST_TIMEOUT",
    option: "requestTimeoutMs",
    unit: "seconds",
  },
  { flag: "min-body-rate", variable: "INCASSO_MIN_BODY_RATE", option: "minBodyBytesPerSecond", unit: "rate" },
  { flag: "body-grace", variable: "INCASSO_BODY_GRACE", option: "bodyGraceMs", unit: "seconds" },
  { flag: "max-connections", variable: "INCASSO_MAX_CONNECTIONS", option: "maxConnections", unit: "count" },
];

function parseLimit(value: string, flag: string, unit: Unit): number {
  // A rate of 0 turns the check off; a time-out or a cap of 0 would refuse everything.
  const pattern = unit === "rate" ? /^[0-9]{1,9}$/ : /^[1-9][0-9]{0,8}$/;
  if (!pattern.test(value)) {
    const what =
      unit === "seconds"
        ? "a positive whole number of seconds"
        : unit === "rate"
          ? "a whole number of bytes per second (0 = off)"
          : "a positive integer";
    throw new Error(`--${flag} must be ${what}, not ${value}`);
  }
  return unit === "seconds" ? Number(value) * 1000 : Number(value);
}

/**
 * The connection limits of `incasso serve`: each from its flag, else its `INCASSO_*` variable,
 * else the server's default (left out here).
 *
 * @example
 * serveLimits({ "max-connections": "200" }, {}); // { maxConnections: 200 }
 * serveLimits({}, { INCASSO_HEADERS_TIMEOUT: "30" }); // { headersTimeoutMs: 30000 }
 */
export function serveLimits(
  values: Partial<Record<keyof typeof SERVE_LIMIT_OPTIONS, string | undefined>>,
  env: NodeJS.ProcessEnv = process.env,
): ConnectionLimits {
  const limits: ConnectionLimits = {};
  for (const { flag, variable, option, unit } of LIMIT_FLAGS) {
    const value = values[flag] ?? env[variable];
    if (value === undefined || value === "") continue;
    limits[option] = parseLimit(value, flag, unit);
  }
  return limits;
}

/**
 * The body budget of `incasso serve` in bytes (decision server-body-budget), from `--body-budget`
 * in MiB, else `INCASSO_BODY_BUDGET`; undefined leaves the API's default.
 *
 * @example
 * serveBodyBudget({ "body-budget": "512" }, {}); // 536870912
 */
export function serveBodyBudget(
  values: { "body-budget"?: string | undefined },
  env: NodeJS.ProcessEnv = process.env,
): number | undefined {
  const value = values["body-budget"] ?? env.INCASSO_BODY_BUDGET;
  if (value === undefined || value === "") return undefined;
  if (!/^[1-9][0-9]{0,6}$/.test(value)) {
    throw new Error(`--body-budget must be a positive whole number of MiB, not ${value}`);
  }
  return Number(value) * 1024 * 1024;
}
