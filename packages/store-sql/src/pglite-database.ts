import { existsSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import type { Executor, SqlDatabase } from "./database.js";
import { unavailableOr } from "./internal/unavailable.js";

/**
 * The error when a data directory is asked for but PGlite is not installed: a host on PostgreSQL
 * may leave the optional dependency out (`npm install --omit=optional`).
 */
class PgliteMissingError extends Error {
  readonly code = "pglite_not_installed";
  constructor(cause: unknown) {
    super(
      "Embedded PostgreSQL needs the package @electric-sql/pglite, which is not installed. Install it " +
        "(npm install @electric-sql/pglite), or give a PostgreSQL URL (DATABASE_URL) instead of a data directory.",
      { cause },
    );
    this.name = "PgliteMissingError";
  }
}

type PgliteModule = typeof import("@electric-sql/pglite");

/**
 * Loads PGlite when a data directory (or an in-memory database) is opened, so a host on PostgreSQL
 * neither needs it installed nor pays for loading its WebAssembly module. Not re-exported; the
 * importer is a parameter for the test of a missing package.
 *
 * @example
 * const { PGlite } = await loadPglite();
 */
export async function loadPglite(
  importer: () => Promise<PgliteModule> = () => import("@electric-sql/pglite"),
): Promise<PgliteModule> {
  try {
    return await importer();
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_MODULE_NOT_FOUND") throw new PgliteMissingError(error);
    throw error;
  }
}

function executor(db: Pick<PGlite, "query">): Executor {
  return {
    async query<Row>(text: string, params?: unknown[]) {
      let result: Awaited<ReturnType<typeof db.query<Row>>>;
      try {
        result = await db.query<Row>(text, params);
      } catch (error) {
        // An engine that stopped (closed, or its WebAssembly aborted) answers nothing more: the
        // request gets a 503 with Retry-After, as with a PostgreSQL server out of reach.
        throw unavailableOr(error);
      }
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
  };
}

/** A transaction of PGlite, its failure from a stopped engine turned into a StoreUnavailableError. */
async function inTransaction<T>(pglite: PGlite, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  try {
    return await pglite.transaction(fn);
  } catch (error) {
    throw unavailableOr(error);
  }
}

/**
 * PGlite's `shared_buffers` in MiB unless told otherwise. PostgreSQL's own default, 128 MiB, is
 * zeroed when PGlite starts, so every embedded server carried about 115 MiB of resident memory for
 * its buffer cache before its first request. An embedded database is one process's, on a file
 * system that caches its files anyway: 16 MiB served the order benchmark as fast, and with the
 * embedded body budget kept a server with 24 concurrent 39 MB orders under 700 MB (issue 22, item
 * 4; decisions store-pglite-memory, server-body-budget).
 */
export const PGLITE_SHARED_BUFFERS_MB = 16;

/**
 * Checks a `shared_buffers` size for PGlite: whole MiB from 1 to 1024 (its WebAssembly memory
 * ends at 2 GiB, which the buffers share with everything else the engine holds).
 *
 * @throws {RangeError} for anything else
 * @example
 * checkPgliteSharedBuffers(64); // 64
 */
export function checkPgliteSharedBuffers(mb: number): number {
  if (!Number.isSafeInteger(mb) || mb < 1 || mb > 1024) {
    throw new RangeError(
      `PGlite shared buffers must be a whole number of MiB from 1 to 1024, got ${String(mb)}`,
    );
  }
  return mb;
}

// Runs in the worker of initPgliteDataDir: PGlite's initdb, then a clean close. A script, as an
// eval worker's code is, with PGlite (ESM only) loaded by dynamic import.
const INITDB_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
import(workerData.module)
  .then(async ({ PGlite }) => {
    const db = await PGlite.create(workerData.dataDir);
    await db.close();
    parentPort.postMessage("done");
  });
`;

/**
 * Makes a new PGlite data directory in a worker thread that ends when it is done; a directory that
 * holds a database (its PG_VERSION file) is left alone. PGlite's initdb takes about 800 MiB, and a
 * process keeps what its WebAssembly memory grew to: made in the process that then serves, the
 * directory's first server stayed at that size until restarted. Made in a worker, that memory goes
 * with the worker (decision store-pglite-memory).
 *
 * @example
 * await initPgliteDataDir(".data/pglite");
 */
export async function initPgliteDataDir(dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, "PG_VERSION"))) return;
  const worker = new Worker(INITDB_WORKER, {
    eval: true,
    workerData: { dataDir, module: import.meta.resolve("@electric-sql/pglite") },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      worker.once("message", () => resolve());
      worker.once("error", reject);
      worker.once("exit", (code) =>
        reject(new Error(`PGlite's initdb in ${dataDir} ended with code ${code}`)),
      );
    });
  } finally {
    await worker.terminate();
  }
}

/**
 * Opens embedded PostgreSQL (PGlite), in a directory or, without one, in memory. This does not
 * guard the directory: {@link openStore} takes the lock file first, because two PGlite instances on
 * one directory corrupt it.
 *
 * @example
 * const db = await openPgliteDatabase(); // in memory, for tests
 * await db.query("SELECT 1");
 */
export async function openPgliteDatabase(
  options: { dataDir?: string; sharedBuffersMb?: number } = {},
): Promise<SqlDatabase> {
  const sharedBuffers = checkPgliteSharedBuffers(options.sharedBuffersMb ?? PGLITE_SHARED_BUFFERS_MB);
  const { PGlite } = await loadPglite();
  if (options.dataDir !== undefined) await initPgliteDataDir(options.dataDir);
  // PGlite's own start parameters, with the buffer cache's size added.
  const settings = { startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffers}MB`] };
  const pglite =
    options.dataDir === undefined
      ? await PGlite.create(settings)
      : await PGlite.create(options.dataDir, settings);
  const outer = executor(pglite);
  return {
    engine: "pglite",
    query: outer.query,
    transaction: (fn) => inTransaction(pglite, (tx) => fn(executor(tx))),
    // In process there is no round trip to save: the statements run one after the other in a
    // transaction, which on PGlite also keeps every other query out until it ends.
    batch: (statements) =>
      inTransaction(pglite, async (tx) => {
        const on = executor(tx);
        const results = [];
        for (const s of statements) results.push(await on.query<Record<string, unknown>>(s.text, s.params));
        return results;
      }),
    close: () => pglite.close(),
  };
}
