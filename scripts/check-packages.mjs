// Checks every publishable package's manifest the way consumers will meet it: publint for the
// package.json and its files, attw for the types each entry resolves to. Run after `pnpm build`.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { publint } from "publint";
import { formatMessage } from "publint/utils";

const root = new URL("..", import.meta.url).pathname;
const dirs = ["packages", "adapters"].flatMap((group) =>
  readdirSync(join(root, group)).map((name) => join(root, group, name)),
);
let failed = 0;
for (const dir of dirs) {
  const manifestPath = join(dir, "package.json");
  if (!existsSync(manifestPath)) continue;
  const pkg = JSON.parse(readFileSync(manifestPath, "utf8"));
  if (pkg.private) continue;
  const { messages } = await publint({ pkgDir: dir, level: "warning", strict: true });
  for (const m of messages) console.log(`${pkg.name}: publint ${m.type}: ${formatMessage(m, pkg)}`);
  if (messages.length > 0) failed++;
  try {
    execFileSync("pnpm", ["exec", "attw", "--pack", dir, "--profile", "esm-only", "--format", "ascii"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    failed++;
    console.log(`${pkg.name}: attw found problems:\n${error.stdout?.toString() ?? error.message}`);
  }
  console.log(`${pkg.name}: ${messages.length === 0 ? "ok" : "see above"}`);
}
if (failed > 0) {
  console.error(`${failed} package check(s) failed`);
  process.exit(1);
}
console.log("publint and attw: every package is clean");
