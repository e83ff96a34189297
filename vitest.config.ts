import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

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
    for (const sub of ["node", "migrations", "events"]) {
      const subEntry = `${root}${group}/${name}/src/${sub}.ts`;
      if (existsSync(subEntry)) subpaths.push({ find: `@incasso/${name}/${sub}`, replacement: subEntry });
    }
  }
}
const alias = [...subpaths, ...mains];

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
