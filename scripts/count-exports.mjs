// Counts the names a built package exports: run-time names (keys of the imported module) and, from
// its .d.ts, every exported name (types included). Usage, after `pnpm build`:
//   node scripts/count-exports.mjs packages/server [entry …]   (entries default to ".")
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dir = "packages/server", ...entries] = process.argv.slice(2);
const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
for (const entry of entries.length > 0 ? entries : ["."]) {
  const target = manifest.exports[entry];
  const runtime = Object.keys(await import(pathToFileURL(resolve(dir, target.default)).href));
  // Every name in the export lists of the declaration file (tsup emits `export { a, type B, … };`).
  const dts = readFileSync(resolve(dir, target.types), "utf8");
  const all = new Set();
  for (const list of dts.matchAll(/export \{([^}]*)\}/g)) {
    for (const item of list[1].split(",")) {
      const name = item
        .trim()
        .replace(/^type /, "")
        .split(" as ")
        .pop()
        ?.trim();
      if (name) all.add(name);
    }
  }
  console.log(`${manifest.name} ${entry}: ${all.size} names, ${runtime.length} at run time`);
}
