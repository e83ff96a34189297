import { resolve } from "node:path";

/**
 * Where the service keeps its data: an embedded PGlite data directory, or a PostgreSQL server.
 *
 * @example
 * const target: IncassoTarget = { databaseUrl: "postgres://incasso@db.internal/incasso" };
 */
export type IncassoTarget = { dataDir: string } | { databaseUrl: string };

/** Default embedded data directory, relative to the working directory. */
export const DEFAULT_DATA_DIR = ".data";

/**
 * The storage target the CLI and {@link createIncasso} use: the one given, else DATABASE_URL,
 * else INCASSO_DATA_DIR, else `./.data`. A data directory is made absolute, so the lock and the
 * operator file name one place whatever the working directory later is.
 *
 * @throws {TypeError} when a target is given that names neither a `dataDir` nor a `databaseUrl`
 *   (for example options passed first by mistake).
 *
 * @example
 * resolveTarget(undefined, { DATABASE_URL: "postgres://localhost/incasso" }); // { databaseUrl: "postgres://localhost/incasso" }
 * resolveTarget({ dataDir: ".data" }, {}); // { dataDir: "/srv/app/.data" }
 */
export function resolveTarget(
  target: IncassoTarget | undefined,
  env: Record<string, string | undefined> = process.env,
): IncassoTarget {
  if (target !== undefined && target !== null) {
    const given = target as { dataDir?: unknown; databaseUrl?: unknown };
    if (typeof given.databaseUrl === "string" && given.databaseUrl !== "")
      return { databaseUrl: given.databaseUrl };
    if (typeof given.dataDir === "string" && given.dataDir !== "") return { dataDir: resolve(given.dataDir) };
    // The usual slip is `createIncasso({ caseSystem })`: options go second. Say so rather than
    // fail later on a path of `undefined`.
    throw new TypeError(
      `The storage target must be { dataDir: string } or { databaseUrl: string }; got an object with ${
        Object.keys(target).join(", ") || "no keys"
      }. Options such as caseSystem go second: createIncasso(undefined, { caseSystem }).`,
    );
  }
  if (env.DATABASE_URL) return { databaseUrl: env.DATABASE_URL };
  return { dataDir: resolve(env.INCASSO_DATA_DIR || DEFAULT_DATA_DIR) };
}
