// Records the third-party packages bundled into dist (pdf-lib and what it pulls in, see
// tsup.config.ts) with their licences, as their licences ask when the code is passed on (MIT:
// "The above copyright notice and this permission notice shall be included in all copies"). Reads
// the metafile tsup wrote and writes dist/THIRD-PARTY-LICENSES.txt: name, version, licence,
// homepage and licence text of each, with the copyright notices at the top of the bundled source
// files, which the bundle drops (pako's zlib notice, pdf-lib's ports of pdf.js and XPDF under
// Apache 2.0). Writes dist/third-party.json (the same without the texts), puts a comment naming
// them at the top of each chunk that holds them, and removes the metafile, which is not shipped.
// Run after tsup (the package's build script does).
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const pkgDir = resolve(new URL("..", import.meta.url).pathname);
const dist = join(pkgDir, "dist");
const metafilePath = join(dist, "metafile-esm.json");
const metafile = JSON.parse(readFileSync(metafilePath, "utf8"));

/** The folder of the package an input path lies in: the part up to its last node_modules/NAME. */
function packageRoot(input) {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
  return match ? resolve(pkgDir, match[1]) : undefined;
}

/** The licence file of a package folder (LICENSE, LICENSE.md, LICENSE.txt, LICENCE, COPYING). */
function licenceFile(dir) {
  const name = readdirSync(dir).find((file) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(file));
  if (name === undefined) throw new Error(`no licence file in ${dir}: it cannot be bundled`);
  return join(dir, name);
}

/** The comment at the top of a source file when it holds a copyright notice, else undefined. */
function notice(file) {
  const text = readFileSync(file, "utf8").replace(/\r\n/g, "\n");
  const head = /^(?:\s*["']use strict["'];?)?\s*((?:\/\/.*\n)+|\/\*[\s\S]*?\*\/)/.exec(text)?.[1];
  return head !== undefined && /copyright|\(c\)/i.test(head) ? head.trim() : undefined;
}

const packages = new Map();
const chunks = new Map();
for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
  for (const input of Object.keys(inputs)) {
    const dir = packageRoot(input);
    if (dir === undefined) continue;
    if (!packages.has(dir)) {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      packages.set(dir, {
        name: manifest.name,
        version: manifest.version,
        license: manifest.license,
        homepage: manifest.homepage ?? manifest.repository?.url ?? manifest.repository,
        licenceText: readFileSync(licenceFile(dir), "utf8").replace(/\r\n/g, "\n").trim(),
        notices: new Set(),
      });
    }
    const found = notice(resolve(pkgDir, input));
    if (found !== undefined) packages.get(dir).notices.add(found);
    const names = chunks.get(output) ?? new Set();
    names.add(dir);
    chunks.set(output, names);
  }
}
const bundled = [...packages.values()].sort((a, b) => a.name.localeCompare(b.name));
const label = (p) => `${p.name} ${p.version} (${p.license})`;

const text = [
  "Third-party software bundled in this package's dist folder, with the licence of each.",
  "",
  ...bundled.flatMap((p) => [
    "=".repeat(78),
    `${p.name} ${p.version}`,
    `License: ${p.license}`,
    `Homepage: ${p.homepage}`,
    "",
    p.licenceText,
    "",
    ...(p.notices.size === 0
      ? []
      : [`Notices in the bundled source files of ${p.name}:`, "", ...[...p.notices].flatMap((n) => [n, ""])]),
  ]),
].join("\n");
writeFileSync(join(dist, "THIRD-PARTY-LICENSES.txt"), text);
writeFileSync(
  join(dist, "third-party.json"),
  `${JSON.stringify(
    bundled.map(({ licenceText: _, notices: __, ...record }) => record),
    null,
    2,
  )}\n`,
);
for (const [output, dirs] of chunks) {
  const file = resolve(pkgDir, output);
  const names = [...dirs].map((dir) => label(packages.get(dir))).sort();
  const banner = `/*! Bundled: ${names.join(", ")}. Licences: THIRD-PARTY-LICENSES.txt */\n`;
  writeFileSync(file, banner + readFileSync(file, "utf8"));
}
rmSync(metafilePath);
console.log(`bundled with their licences: ${bundled.map(label).join(", ")}`);
