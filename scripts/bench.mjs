// Runs every benchmark (packages/*/bench/*.bench.ts and test/bench/*.bench.ts) one after another,
// each in its own process. `pnpm bench wik` runs only the files whose path contains "wik".
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const filter = process.argv[2];
const dirs = [
  ...readdirSync(join(root, "packages")).map((p) => join(root, "packages", p, "bench")),
  join(root, "test", "bench"),
];
const files = dirs
  .filter((d) => existsSync(d))
  .flatMap((d) =>
    readdirSync(d)
      .filter((f) => f.endsWith(".bench.ts"))
      .map((f) => join(d, f)),
  )
  .filter((f) => !filter || f.includes(filter));
let failed = 0;
for (const file of files) {
  console.log(`\n## ${relative(root, file)}\n`);
  const r = spawnSync(process.execPath, ["--import", "tsx", file], { stdio: "inherit", cwd: root });
  if (r.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
