import type { ConnectionLimits } from "@incasso/server/node";
import type { FlagSpec } from "./flag-spec.js";

/**
 * The flags of `incasso serve` that set the server's connection limits (decision
 * server-slow-clients) and the body budget (decision server-body-budget), each with its variable.
 *
 * @example
 * const SERVE_FLAGS = [...OTHER_FLAGS, ...SERVE_LIMIT_FLAGS];
 */
export const SERVE_LIMIT_FLAGS: readonly FlagSpec[] = [
  {
    name: "headers-timeout",
    value: "SECONDS",
    env: "INCASSO_HEADERS_TIMEOUT",
    defaultText: "20",
    description: "a request's headers must arrive within this, else 408",
  },
  {
    name: "request-timeout",
    value: "SECONDS",
    env: "INCASSO_REQUEST_TIMEOUT",
    defaultText: "600",
    description: "a whole request must arrive within this, else 408",
  },
  {
    name: "min-body-rate",
    value: "BYTES_PER_S",
    env: "INCASSO_MIN_BODY_RATE",
    defaultText: "8192; 0 = off",
    description: "slowest body after the grace period, else 408",
  },
  {
    name: "body-grace",
    value: "SECONDS",
    env: "INCASSO_BODY_GRACE",
    defaultText: "10",
    description: "time before the minimum body rate applies",
  },
  {
    name: "max-connections",
    value: "N",
    env: "INCASSO_MAX_CONNECTIONS",
    defaultText: "1000",
    description: "open connections; one more gets 503 and is closed",
  },
  {
    name: "body-budget",
    value: "MIB",
    env: "INCASSO_BODY_BUDGET",
    defaultText: "160; 128 on the embedded database",
    description: "request bodies in flight; past it 503 with Retry-After",
  },
];

type LimitFlag = "headers-timeout" | "request-timeout" | "min-body-rate" | "body-grace" | "max-connections";

type Unit = "seconds" | "count" | "rate";

// Each flag, its variable, the option it sets and the unit it is given in.
const LIMIT_FLAGS: readonly {
  flag: LimitFlag;
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
  values: Partial<Record<LimitFlag, string | boolean | undefined>>,
  env: NodeJS.ProcessEnv = process.env,
): ConnectionLimits {
  const limits: ConnectionLimits = {};
  for (const { flag, variable, option, unit } of LIMIT_FLAGS) {
    const value = values[flag] ?? env[variable];
    if (typeof value !== "string" || value === "") continue;
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
  values: { "body-budget"?: string | boolean | undefined },
  env: NodeJS.ProcessEnv = process.env,
): number | undefined {
  const value = values["body-budget"] ?? env.INCASSO_BODY_BUDGET;
  if (typeof value !== "string" || value === "") return undefined;
  if (!/^[1-9][0-9]{0,6}$/.test(value)) {
    throw new Error(`--body-budget must be a positive whole number of MiB, not ${value}`);
  }
  return Number(value) * 1024 * 1024;
}
