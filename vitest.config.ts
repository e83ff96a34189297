import { existsSync, readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { PGLITE_CHILD_FLAGS } from "./packages/test-utils/src/node-flags.js";
import { SlowFilesFirst } from "./test/support/slow-files-first.js";

// Tests import every @incasso/* package from its TypeScript source, so the suite needs no build
// and a change in one package is seen at once by the packages that use it.
const root = fileURLToPath(new URL(".", import.meta.url));
// A subpath export `@incasso/NAME/SUB` maps to `src/SUB.ts` (for example `@incasso/server/node`);
// subpaths come first, because an alias also matches every path that starts with its name.
const subpaths: { find: string; replacement: string }[] = [];
const mains: { find: string; replacement: string }[] = [];
for (const group of ["packages", "adapters"]) {
  for (const name of readdirSync(`${root}${group}`)) {
    const entry = `${root}${group}/${name}/src/index.ts`;
    if (!existsSync(entry)) continue;
    mains.push({ find: `@incasso/${name}`, replacement: entry });
    for (const sub of ["node", "internal", "migrations", "events", "stepwise"]) {
      const subEntry = `${root}${group}/${name}/src/${sub}.ts`;
      if (existsSync(subEntry)) subpaths.push({ find: `@incasso/${name}/${sub}`, replacement: subEntry });
    }
  }
}
// In-memory PGlite databases start from a copy of a fresh cluster rather than each running initdb
// (test/support/pglite-from-base.ts); only the bare name is matched, not its subpaths.
const pglite = { find: /^@electric-sql\/pglite$/, replacement: `${root}test/support/pglite-from-base.ts` };
const alias = [pglite, ...subpaths, ...mains];

export default defineConfig({
  resolve: { alias },
  test: {
    include: [
      "packages/*/src/**/*.test.ts",
      "adapters/*/src/**/*.test.ts",
      "test/**/*.test.ts",
      "examples/**/*.test.ts",
    ],
    exclude: ["**/node_modules/**", "**/dist/**"],
    // Generous, since files share the machine's cores: a limit here catches a hang, not slowness
    // (speed is measured by benchmarks, never by a test's time).
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // V8's baseline WebAssembly compiler only, in the workers as in the processes tests start
    // (PGLITE_CHILD_FLAGS of @incasso/test-utils): a test's embedded database lives seconds, too
    // short for the optimizing tier to pay back (measured: 7% less CPU over eight database files).
    execArgv: [...PGLITE_CHILD_FLAGS],
    // Files run side by side: each uses its own port (0), its own embedded database or its own
    // PostgreSQL schema or database, so none waits on another. Much of a file's time is spent
    // waiting on sockets and child processes, so at least three workers run even on 2 cores
    // (measured there: 599 s with three, 639 s with two, for 3% more CPU); on a machine with more
    // cores every core is used. INCASSO_TEST_WORKERS overrides the count.
    maxWorkers: Number(process.env.INCASSO_TEST_WORKERS) || Math.max(3, availableParallelism()),
    // A worker keeps the modules it loaded from one file to the next (no test here mocks a module
    // or stubs a global, and every file cleans up what it opens), and transformed sources are kept
    // on disk for every worker: together this halved the suite's CPU time.
    isolate: false,
    experimental: { fsModuleCache: true },
    globalSetup: ["test/support/global-setup.ts"],
    sequence: { sequencer: SlowFilesFirst },
    // INCASSO_TEST_TIMINGS=FILE also writes vitest's JSON report (each file's and test's duration)
    // to FILE, and each file's CPU time (its worker's and its child processes') to FILE.cpu.jsonl,
    // to find the files that hold the suite up.
    ...(process.env.INCASSO_TEST_TIMINGS
      ? {
          reporters: ["default", ["json", { outputFile: process.env.INCASSO_TEST_TIMINGS }]],
          setupFiles: ["test/support/cpu-per-file.ts"],
        }
      : {}),
  },
});
