import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { makePgliteBase } from "./pglite-base.js";

/**
 * vitest's global setup: runs once before any test file.
 *
 * @example
 * // vitest.config.ts: test: { globalSetup: ["test/support/global-setup.ts"] }
 */
export default async function setup(project: TestProject): Promise<void> {
  chooseCliBuild(project.vitest.config.watch);
  await makePgliteBase();
}

/**
 * Has the suite's `incasso` child processes (`cliProcesses()` of @incasso/test-utils) run the built
 * CLI when every package's build is up to date, as after the README's test command, which builds
 * first: that is what users run, and it starts on a third of the CPU time of the sources through
 * tsx (measured on packages/app/src/cli/operators-cli.test.ts: 80 s of CPU on the sources, 36 s on
 * the build). While sources are newer than their build, and always in watch mode (where sources
 * change after this check, and the build would go stale under the runs that follow), the CLI runs
 * from its sources. INCASSO_TEST_CLI=source or =built set beforehand decides instead.
 */
function chooseCliBuild(watch: boolean): void {
  if (process.env.INCASSO_TEST_CLI) return;
  if (watch) {
    process.env.INCASSO_TEST_CLI = "source";
    return;
  }
  const script = fileURLToPath(new URL("../../scripts/build-changed.mjs", import.meta.url));
  const check = spawnSync(process.execPath, [script, "--check"], { stdio: "ignore" });
  process.env.INCASSO_TEST_CLI = check.status === 0 ? "built" : "source";
}
