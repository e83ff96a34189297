import { existsSync, readFileSync } from "node:fs";
// By path, since the alias of the name leads here.
import {
  type PGliteOptions,
  PGlite as RealPGlite,
} from "../../packages/store-sql/node_modules/@electric-sql/pglite/dist/index.js";
import { PGLITE_BASE_FILE } from "./pglite-base.js";

// The suite's stand-in for `@electric-sql/pglite` (vitest.config.ts aliases the name here): the
// real module, except that an in-memory database starts from the copy of a fresh cluster that
// pglite-base.ts made, rather than running initdb. A data directory on disk is left as it is.

export * from "../../packages/store-sql/node_modules/@electric-sql/pglite/dist/index.js";

let base: Blob | undefined;
function baseCluster(): Blob | undefined {
  if (base === undefined && existsSync(PGLITE_BASE_FILE)) base = new Blob([readFileSync(PGLITE_BASE_FILE)]);
  return base;
}

function inMemory(dataDir: string | undefined): boolean {
  return dataDir === undefined || dataDir === "" || dataDir.startsWith("memory://");
}

/** PGlite, whose in-memory databases load the fresh cluster's copy when it is there. */
export class PGlite extends RealPGlite {
  static override async create(
    dataDirOrOptions?: string | PGliteOptions,
    maybeOptions?: PGliteOptions,
  ): Promise<RealPGlite> {
    const dataDir = typeof dataDirOrOptions === "string" ? dataDirOrOptions : undefined;
    const options = (typeof dataDirOrOptions === "string" ? maybeOptions : dataDirOrOptions) ?? {};
    const loadDataDir = inMemory(dataDir) && !options.loadDataDir ? baseCluster() : undefined;
    const withBase = loadDataDir ? { ...options, loadDataDir } : options;
    return dataDir === undefined ? RealPGlite.create(withBase) : RealPGlite.create(dataDir, withBase);
  }
}
