// Copies RapiDoc's standalone bundle into dist/rapidoc at build time, with its licence files and a
// record of what was copied, so the published package serves the API reference without rapidoc
// installed: rapidoc is a devDependency only, and a host does not install its 128 packages to
// serve one file (issue 32, item 2). `node scripts/copy-rapidoc.mjs [DIR]` copies into DIR instead.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const require = createRequire(import.meta.url);
const rapidocDir = dirname(require.resolve("rapidoc/package.json"));
const rapidoc = JSON.parse(readFileSync(join(rapidocDir, "package.json"), "utf8"));
const out = process.argv[2] ?? new URL("../dist/rapidoc/", import.meta.url).pathname;
mkdirSync(out, { recursive: true });
// The bundle, the licences of what it bundles (its banner points there), and RapiDoc's own.
for (const [from, to] of [
  ["dist/rapidoc-min.js", "rapidoc-min.js"],
  ["dist/rapidoc-min.js.LICENSE.txt", "rapidoc-min.js.LICENSE.txt"],
  ["LICENSE.txt", "LICENSE.txt"],
]) {
  copyFileSync(join(rapidocDir, from), join(out, to));
}
// The bundle compressed here, once, as the server would on first use (brotli 11, gzip 9; decision
// pages-compression): brotli 11 of its 863 KB costs over a second of CPU, which the first visitor
// of the reference would otherwise wait for (issue 31, item 7).
const bundle = readFileSync(join(out, "rapidoc-min.js"));
writeFileSync(
  join(out, "rapidoc-min.js.br"),
  brotliCompressSync(bundle, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bundle.length },
  }),
);
writeFileSync(join(out, "rapidoc-min.js.gz"), gzipSync(bundle, { level: 9 }));
const record = {
  name: rapidoc.name,
  version: rapidoc.version,
  license: rapidoc.license,
  homepage: rapidoc.homepage,
  files: ["rapidoc-min.js", "rapidoc-min.js.LICENSE.txt", "LICENSE.txt"],
  compressed: ["rapidoc-min.js.br", "rapidoc-min.js.gz"],
};
writeFileSync(join(out, "rapidoc.json"), `${JSON.stringify(record, null, 2)}\n`);
console.log(`copied ${rapidoc.name} ${rapidoc.version} (${rapidoc.license}) into ${out}`);
