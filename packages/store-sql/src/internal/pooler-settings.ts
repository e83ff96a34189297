import type { PreparedStatements } from "../postgres-database.js";

/**
 * Ports that, by convention, are a transaction pooler's: PgBouncer's default (6432) and the
 * transaction-mode pooler port of hosted PostgreSQL offerings (6543). A server on them gets unnamed
 * statements unless the URL or the option says otherwise; a mistake costs only the parse per
 * statement, never a wrong answer.
 */
const POOLER_PORTS = new Set(["6432", "6543"]);

/** The URL parameters this store reads; removed before the URL reaches the driver. */
const PGBOUNCER_PARAM = "pgbouncer";
const PREPARED_PARAM = "prepared_statements";

const TRUE = new Set(["true", "1", "yes", "on"]);
const FALSE = new Set(["false", "0", "no", "off"]);

function flag(value: string | null, name: string): boolean | undefined {
  if (value === null) return undefined;
  const text = value.trim().toLowerCase();
  if (TRUE.has(text)) return true;
  if (FALSE.has(text)) return false;
  throw new Error(`The database URL parameter ${name} must be true or false, not "${value}".`);
}

/**
 * How the store talks to the server at `url`: the URL for the driver (without this store's own
 * parameters), whether statements are named to begin with, whether a pooler's name clash may still
 * turn that off (`auto`), and whether the URL declares a pooler (`pgbouncer=true`).
 *
 * - `pgbouncer=true` (the parameter other PostgreSQL clients also read) or
 *   `prepared_statements=false`: unnamed statements; `prepared_statements=true`: named.
 * - The option, when not "auto", wins over the URL.
 * - Otherwise ("auto"): unnamed on ports 6432 and 6543, named elsewhere; either way switched off
 *   when the server reports a clash of names.
 *
 * @example
 * poolerSettings("postgres://app@db:6432/incasso?pgbouncer=true", "auto");
 * // { url: "postgres://app@db:6432/incasso", named: false, auto: true, declared: true }
 * poolerSettings("postgres://app@db:5432/incasso", undefined);
 * // { url: "postgres://app@db:5432/incasso", named: true, auto: true, declared: false }
 */
export function poolerSettings(
  url: string,
  option: PreparedStatements | undefined,
): { url: string; named: boolean; auto: boolean; declared: boolean } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL the WHATWG parser reads (a libpq key=value string): left to the driver as it is.
    return { url, named: option !== false, auto: option === undefined || option === "auto", declared: false };
  }
  const pgbouncer = flag(parsed.searchParams.get(PGBOUNCER_PARAM), PGBOUNCER_PARAM);
  const prepared = flag(parsed.searchParams.get(PREPARED_PARAM), PREPARED_PARAM);
  const hadParams = pgbouncer !== undefined || prepared !== undefined;
  parsed.searchParams.delete(PGBOUNCER_PARAM);
  parsed.searchParams.delete(PREPARED_PARAM);
  const declared = pgbouncer === true;
  const clean = hadParams ? parsed.href : url;
  if (option === true || option === false) return { url: clean, named: option, auto: false, declared };
  if (prepared !== undefined) return { url: clean, named: prepared, auto: false, declared };
  if (declared) return { url: clean, named: false, auto: false, declared };
  return { url: clean, named: !POOLER_PORTS.has(parsed.port), auto: true, declared };
}
