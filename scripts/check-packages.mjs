// Checks every publishable package's manifest the way consumers will meet it: publint for the
// package.json and its files, attw for the types each entry resolves to. Run after `pnpm build`.
// The packages are checked side by side, one per core (attw packs each package with npm, which
// waits on a process of its own), and reported in a fixed order: 51 s before, 27 s side by side on
// 2 cores. attw is run from the workspace's own node_modules; publint packs with pnpm, so run this
// as `pnpm check:packages`.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { publint } from "publint";
import { formatMessage } from "publint/utils";

const run = promisify(execFile);
const root = new URL("..", import.meta.url).pathname;
const attw = join(root, "node_modules", ".bin", "attw");
const packages = ["packages", "adapters"]
  .flatMap((group) => readdirSync(join(root, group)).map((name) => join(root, group, name)))
  .filter((dir) => existsSync(join(dir, "package.json")))
  .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }))
  .filter(({ pkg }) => !pkg.private);

/** publint and attw for one package: the lines to print and how many checks failed. */
async function check({ dir, pkg }) {
  const lines = [];
  let failed = 0;
  const { messages } = await publint({ pkgDir: dir, level: "warning", strict: true });
  for (const m of messages) lines.push(`${pkg.name}: publint ${m.type}: ${formatMessage(m, pkg)}`);
  if (messages.length > 0) failed++;
  try {
    await run(attw, ["--pack", dir, "--profile", "esm-only", "--format", "ascii"], {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    failed++;
    lines.push(`${pkg.name}: attw found problems:\n${error.stdout?.toString() || error.message}`);
  }
  lines.push(`${pkg.name}: ${failed === 0 ? "ok" : "see above"}`);
  return { lines, failed };
}

const results = new Array(packages.length);
let next = 0;
await Promise.all(
  Array.from({ length: Math.min(packages.length, Math.max(1, availableParallelism())) }, async () => {
    for (let i = next++; i < packages.length; i = next++) results[i] = await check(packages[i]);
  }),
);
let failed = 0;
for (const result of results) {
  for (const line of result.lines) console.log(line);
  failed += result.failed;
}
if (failed > 0) {
  console.error(`${failed} package check(s) failed`);
  process.exit(1);
}
console.log("publint and attw: every package is clean");
