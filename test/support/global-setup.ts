import { makePgliteBase } from "./pglite-base.js";

/**
 * vitest's global setup: runs once before any test file.
 *
 * @example
 * // vitest.config.ts: test: { globalSetup: ["test/support/global-setup.ts"] }
 */
export default async function setup(): Promise<void> {
  await makePgliteBase();
}
