import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import workspace from "../../../../../vitest.config.js";

// The workspace's config (its @incasso/* aliases) for the *.kit.ts files of this folder only,
// which the workspace's own run leaves out. Built, not merged: a merge would add the workspace's
// include patterns to these.
export default defineConfig({
  root: fileURLToPath(new URL("../../../../../", import.meta.url)),
  resolve: workspace.resolve,
  test: {
    ...workspace.test,
    include: ["packages/case-system-conformance/src/internal/testing/*.kit.ts"],
  },
});
