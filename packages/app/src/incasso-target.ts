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
 * The storage target the CLI and {@link createIncasso} use: the one given, else
 * INCASSO_DATABASE_URL, else DATABASE_URL, else INCASSO_DATA_DIR, else `./.data`. A data directory is made absolute, so the lock and the
 * operator file name one place whatever the working directory later is.
 *
 * @example
 * resolveTarget(undefined, { DATABASE_URL: "postgres://localhost/incasso" }); // { databaseUrl: "postgres://localhost/incasso" }
 * resolveTarget({ dataDir: ".data" }, {}); // { dataDir: "/srv/app/.data" }
 */
export function resolveTarget(
  target: IncassoTarget | undefined,
  env: Record<string, string | undefined> = process.env,
): IncassoTarget {
  if (target !== undefined && "databaseUrl" in target) return { databaseUrl: target.databaseUrl };
  if (target !== undefined) return { dataDir: resolve(target.dataDir) };
  const url = env.INCASSO_DATABASE_URL || env.DATABASE_URL;
  if (url) return { databaseUrl: url };
  return { dataDir: resolve(env.INCASSO_DATA_DIR || DEFAULT_DATA_DIR) };
}
