import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { initPgliteDataDir } from "@incasso/store-sql";

// A new data directory's first command spends most of its time in PostgreSQL's initdb (about 4.5 s
// of CPU of the 8 s a first `incasso serve` takes, against 3.4 s when the cluster is there). The
// suites' data directories start from a copy of one fresh cluster, made once per PGlite version.
// Only initdb is skipped: the command still applies every migration, so a test sees exactly what
// an operator's new data directory holds (as test/support/pglite-base.ts does for in-memory ones).

const storeSql = fileURLToPath(new URL("../../store-sql/package.json", import.meta.url));
const pgliteVersion = (() => {
  const entry = createRequire(storeSql).resolve("@electric-sql/pglite");
  return (JSON.parse(readFileSync(join(dirname(entry), "../package.json"), "utf8")) as { version: string })
    .version;
})();

/** Where the fresh cluster is kept, one per PGlite version. */
const CLUSTER = join(tmpdir(), `incasso-test-pglite-cluster-${pgliteVersion}`);

let made: Promise<void> | undefined;

/** Makes the fresh cluster once: in a directory of its own, renamed into place when whole. */
function freshCluster(): Promise<void> {
  made ??= (async () => {
    if (existsSync(join(CLUSTER, "PG_VERSION"))) return;
    const partial = `${CLUSTER}.${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    await initPgliteDataDir(partial);
    try {
      renameSync(partial, CLUSTER);
    } catch (error) {
      // Another process put its copy there first: that one is as good.
      rmSync(partial, { recursive: true, force: true });
      if (!existsSync(join(CLUSTER, "PG_VERSION"))) throw error;
    }
  })();
  return made;
}

/**
 * A new, empty `--data-dir` in the system's temporary folder whose embedded database cluster is
 * already initialised (no migration applied, no key, no organisation): what `incasso` makes on a
 * directory it has never seen, less initdb. The caller removes it.
 *
 * @example
 * const dir = await newDataDir("incasso-shutdown-");
 * await cli.run(["keys", "list", "--data-dir", dir]); // "No API keys yet. …"
 */
export async function newDataDir(prefix: string): Promise<string> {
  await freshCluster();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(CLUSTER, join(dir, "pglite"), { recursive: true });
  return dir;
}
