import { type IncassoTarget, resolveTarget } from "../incasso-target.js";

// Where a command's data is. Apart from cli-store.ts, so that printing where it is loads no store.

/**
 * The storage flags every command takes.
 *
 * @example
 * const flags: StorageFlags = { "data-dir": ".data" };
 */
export interface StorageFlags {
  "data-dir"?: string | boolean | undefined;
  "database-url"?: string | boolean | undefined;
}

/**
 * Where the data is: the flags first (--database-url, --data-dir), then the environment as
 * {@link resolveTarget} reads it (INCASSO_DATABASE_URL, DATABASE_URL, INCASSO_DATA_DIR, `./.data`).
 *
 * @example
 * storageTarget({ "data-dir": ".data" }); // { dataDir: "/abs/.data" }
 */
export function storageTarget(flags: StorageFlags): IncassoTarget {
  const url = flags["database-url"];
  const dir = flags["data-dir"];
  if (typeof url === "string" && url !== "") {
    warnPasswordInFlag(url);
    return resolveTarget({ databaseUrl: url });
  }
  if (typeof dir === "string" && dir !== "") return resolveTarget({ dataDir: dir });
  return resolveTarget(undefined);
}

let warnedPasswordInFlag = false;

/**
 * Whether a connection string carries a password: the URL form's `user:password@` or libpq's
 * `password=` keyword.
 *
 * @example
 * hasPassword("postgres://incasso:pw@db/incasso"); // true
 */
export function hasPassword(databaseUrl: string): boolean {
  try {
    if (new URL(databaseUrl).password !== "") return true;
  } catch {
    // Not a URL: libpq's keyword form, checked below.
  }
  return /(^|[\s?&])password=/i.test(databaseUrl);
}

/**
 * A command line is readable by every user of the machine (`ps`, /proc/PID/cmdline), so a password
 * in --database-url is not secret there; the environment is readable only by the same user
 * (decision store-secrets-at-rest). Said once per process, on stderr so `--json` output stays
 * clean.
 */
function warnPasswordInFlag(databaseUrl: string): void {
  if (warnedPasswordInFlag || !hasPassword(databaseUrl)) return;
  warnedPasswordInFlag = true;
  process.stderr.write(
    "incasso: warning: --database-url holds a password, which any user of this machine can read in the process list; pass the URL in DATABASE_URL instead\n",
  );
}
