// Checks every publishable package's manifest the way consumers will meet it: publint for the
// package.json and its files, attw (Are the Types Wrong?) for the types each entry resolves to,
// both on the tarball npm packs. Run after `pnpm build`.
//
// One `npm pack` packs every package and both checks run in this process on the tarballs, through
// publint's and attw's own libraries: run per package through attw's CLI (`attw --pack`), each
// package cost an npm process and a node process that loads TypeScript anew, 118 s of CPU for the
// 17 packages on 2 cores; this way it is about a fifth of that. The rules are attw's `esm-only`
// profile: the packages are ESM only, so node10 and node16-cjs resolutions are not checked.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { checkPackage, createPackageFromTarballData } from "@arethetypeswrong/core";
import { problemKindInfo } from "@arethetypeswrong/core/problems";
import { publint } from "publint";
import { formatMessage } from "publint/utils";

const run = promisify(execFile);
const root = new URL("..", import.meta.url).pathname;
// attw's `esm-only` profile (its CLI's `--profile esm-only`).
const IGNORED_RESOLUTIONS = ["node10", "node16-cjs"];
const packages = ["packages", "adapters"]
  .flatMap((group) => readdirSync(join(root, group)).map((name) => join(root, group, name)))
  .filter((dir) => existsSync(join(dir, "package.json")))
  .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }))
  .filter(({ pkg }) => !pkg.private);

/** Packs every package with one npm process; the tarball of each, in the order of `packages`. */
async function packAll(destination) {
  const { stdout } = await run(
    "npm",
    ["pack", "--json", "--pack-destination", destination, ...packages.map(({ dir }) => dir)],
    { cwd: root, maxBuffer: 64 * 1024 * 1024 },
  );
  const packed = JSON.parse(stdout);
  return packages.map(({ pkg }) => {
    const found = packed.find((entry) => entry.name === pkg.name);
    if (!found) throw new Error(`npm pack did not pack ${pkg.name}`);
    return join(destination, found.filename);
  });
}

/** The problems attw reports for a tarball under the esm-only profile, one line each. */
async function typeProblems(tarball) {
  const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(readFileSync(tarball))));
  // An untyped package has nothing to check (attw's CLI exits 0 for it too).
  if (!analysis.types) return [];
  return analysis.problems
    .filter(
      (problem) => !("resolutionKind" in problem) || !IGNORED_RESOLUTIONS.includes(problem.resolutionKind),
    )
    .map((problem) => {
      const where = [problem.entrypoint, problem.resolutionKind].filter(Boolean).join(", ");
      return `${problemKindInfo[problem.kind]?.title ?? problem.kind}${where ? ` (${where})` : ""}: ${JSON.stringify(problem)}`;
    });
}

/** publint and attw for one package: the lines to print and how many checks failed. */
async function check({ pkg }, tarball) {
  const lines = [];
  let failed = 0;
  const tarballData = readFileSync(tarball);
  const { messages } = await publint({
    level: "warning",
    strict: true,
    pack: {
      tarball: tarballData.buffer.slice(
        tarballData.byteOffset,
        tarballData.byteOffset + tarballData.byteLength,
      ),
    },
  });
  for (const m of messages) lines.push(`${pkg.name}: publint ${m.type}: ${formatMessage(m, pkg)}`);
  if (messages.length > 0) failed++;
  const problems = await typeProblems(tarball);
  for (const problem of problems) lines.push(`${pkg.name}: attw: ${problem}`);
  if (problems.length > 0) failed++;
  lines.push(`${pkg.name}: ${failed === 0 ? "ok" : "see above"}`);
  return { lines, failed };
}

const destination = mkdtempSync(join(tmpdir(), "incasso-check-packages-"));
let failed = 0;
try {
  const tarballs = await packAll(destination);
  for (const [index, entry] of packages.entries()) {
    const result = await check(entry, tarballs[index]);
    for (const line of result.lines) console.log(line);
    failed += result.failed;
  }
} finally {
  rmSync(destination, { recursive: true, force: true });
}
if (failed > 0) {
  console.error(`${failed} package check(s) failed`);
  process.exit(1);
}
console.log("publint and attw: every package is clean");
