import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// The suite's in-memory PGlite databases start from one copy of a fresh cluster instead of each
// running PostgreSQL's initdb: initdb is most of the cost of opening an embedded database (about
// 7.5 s of CPU under load against 3.3 s to load the copy), and the suite opens one in most files.
// Only initdb is skipped; every database still applies its own migrations, so a test sees exactly
// what a host's new database holds.

const storeSql = join(dirname(fileURLToPath(import.meta.url)), "../../packages/store-sql/package.json");
const require = createRequire(storeSql);
const pgliteEntry = require.resolve("@electric-sql/pglite");
const pgliteVersion = (
  JSON.parse(readFileSync(join(dirname(pgliteEntry), "../package.json"), "utf8")) as { version: string }
).version;

const PGLITE_URL = pathToFileURL(pgliteEntry).href;

/** Where the copy of a fresh cluster is kept, one per PGlite version. */
export const PGLITE_BASE_FILE = join(tmpdir(), `incasso-test-pglite-base-${pgliteVersion}.tar`);

/**
 * Makes the copy once (vitest's global setup calls this before any test file runs). Written to a
 * temporary name and renamed, so a file that exists is always whole.
 *
 * @example
 * await makePgliteBase();
 */
export async function makePgliteBase(): Promise<void> {
  if (existsSync(PGLITE_BASE_FILE)) return;
  // By path, so the suite's alias of the name does not reach it.
  const { PGlite } = (await import(PGLITE_URL)) as {
    PGlite: typeof import("../../packages/store-sql/node_modules/@electric-sql/pglite/dist/index.js").PGlite;
  };
  const db = await PGlite.create();
  const dump = await db.dumpDataDir("none");
  await db.close();
  const partial = `${PGLITE_BASE_FILE}.${process.pid}`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, PGLITE_BASE_FILE);
}
