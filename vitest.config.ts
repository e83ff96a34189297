import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Tests import every @incasso/* package from its TypeScript source, so the suite needs no build
// and a change in one package is seen at once by the packages that use it.
const root = fileURLToPath(new URL(".", import.meta.url));
const alias: Record<string, string> = {};
for (const group of ["packages", "adapters"]) {
  for (const name of readdirSync(`${root}${group}`)) {
    const entry = `${root}${group}/${name}/src/index.ts`;
    if (existsSync(entry)) alias[`@incasso/${name}`] = entry;
  }
}

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
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
