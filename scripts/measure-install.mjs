// What each package costs a user to install (issue 32, item 2): every publishable package is packed
// with `pnpm pack`, then each is installed with plain npm into an empty folder, from its tarball and
// the tarballs of the @incasso packages it depends on, as a user installs a release. Prints the
// packages npm added and the size of node_modules, with and without the optional dependencies, as
// Markdown rows for docs/benchmarks/install-start-suite.md. Run after `pnpm build`.
//
//   node scripts/measure-install.mjs [NAME …]   (default: every package)
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const tarballs = mkdtempSync(join(tmpdir(), "incasso-tarballs-"));
execFileSync(
  "npx",
  [
    "-y",
    "pnpm@10.34.8",
    "-r",
    "--filter",
    "./packages/**",
    "--filter",
    "./adapters/**",
    "pack",
    "--pack-destination",
    tarballs,
  ],
  { cwd: root, stdio: "ignore" },
);
const manifests = new Map();
for (const group of ["packages", "adapters"]) {
  for (const dir of readdirSync(join(root, group))) {
    const pkg = JSON.parse(readFileSync(join(root, group, dir, "package.json"), "utf8"));
    if (!pkg.private) manifests.set(pkg.name, pkg);
  }
}
const tarballOf = (name) =>
  join(tarballs, `${name.slice(1).replace("/", "-")}-${manifests.get(name).version}.tgz`);

/** The package and every @incasso package below it. */
function closure(name, found = new Set()) {
  if (found.has(name)) return found;
  found.add(name);
  for (const dep of Object.keys(manifests.get(name).dependencies ?? {})) {
    if (dep.startsWith("@incasso/")) closure(dep, found);
  }
  return found;
}

/** npm's count of added packages and the size of node_modules in MB. */
function install(name, omitOptional) {
  const dir = mkdtempSync(join(tmpdir(), "incasso-install-"));
  try {
    execFileSync("npm", ["init", "-y"], { cwd: dir, stdio: "ignore" });
    const out = execFileSync(
      "npm",
      [
        "install",
        "--omit=dev",
        ...(omitOptional ? ["--omit=optional"] : []),
        "--no-audit",
        "--no-fund",
        ...[...closure(name)].map(tarballOf),
      ],
      { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
    const added = Number(/added (\d+) package/.exec(out)?.[1] ?? Number.NaN);
    const kb = Number(
      execFileSync("du", ["-sk", join(dir, "node_modules")], { encoding: "utf8" }).split("\t")[0],
    );
    return { added, mb: kb / 1024 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const names =
  process.argv.length > 2 ? process.argv.slice(2).map((n) => `@incasso/${n}`) : [...manifests.keys()];
console.log("| package | packages | MB | with --omit=optional |\n|---|---:|---:|---|");
for (const name of names) {
  const all = install(name, false);
  const lean = install(name, true);
  const leanText = lean.added === all.added ? "the same" : `${lean.added} packages, ${lean.mb.toFixed(1)} MB`;
  console.log(`| \`${name}\` | ${all.added} | ${all.mb.toFixed(1)} | ${leanText} |`);
}
rmSync(tarballs, { recursive: true, force: true });
