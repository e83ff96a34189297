#!/usr/bin/env node
// Installing from a clone, before a release: packs every public package of the workspace into one
// folder (pnpm's pack writes the released version where the sources say `workspace:*`) and prints
// the one npm command that installs the tarballs into a project of your own. Run after the build.
//
//   node scripts/pack-all.mjs [--out DIR] [@incasso/NAME …]
//
// With names (for example `@incasso/app @incasso/express`), the command installs those packages
// and the @incasso packages they depend on; without names, every public package. npm installs each
// tarball as a dependency of your project, and the @incasso packages they need are among them, so
// npm never asks a registry for an @incasso package. Decision:
// docs/decisions/packages-install-from-registry.md.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The public packages of the workspace: name → { dir, manifest }. */
function publicPackages() {
  const found = new Map();
  for (const group of ["packages", "adapters"]) {
    for (const dir of readdirSync(join(root, group))) {
      const file = join(root, group, dir, "package.json");
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, "utf8"));
      if (!manifest.private) found.set(manifest.name, { dir: join(root, group, dir), manifest });
    }
  }
  return found;
}

/** `names` and every @incasso package they depend on, in name order. */
function withIncassoDependencies(names, packages = publicPackages()) {
  const wanted = new Set();
  const visit = (name) => {
    const found = packages.get(name);
    if (!found) throw new Error(`${name} is not a public package of this workspace`);
    if (wanted.has(name)) return;
    wanted.add(name);
    for (const dependency of Object.keys(found.manifest.dependencies ?? {})) {
      if (packages.has(dependency)) visit(dependency);
    }
  };
  for (const name of names) visit(name);
  return [...wanted].sort();
}

/** The file name pnpm gives a package's tarball. */
const tarballName = (name, version) => `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;

function main(argv) {
  const outAt = argv.indexOf("--out");
  const out = resolve(outAt >= 0 ? argv[outAt + 1] : join(tmpdir(), "incasso-packages"));
  const names = argv.filter((arg, index) => arg.startsWith("@") && index !== outAt + 1);
  const packages = publicPackages();
  const unbuilt = [...packages].filter(([, { dir }]) => !existsSync(join(dir, "dist")));
  if (unbuilt.length > 0) {
    console.error(`not built: ${unbuilt.map(([name]) => name).join(", ")}; run pnpm build first`);
    process.exit(1);
  }
  mkdirSync(out, { recursive: true });
  const { packageManager } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const filters = [...packages.keys()].flatMap((name) => ["--filter", name]);
  // One pnpm for every package: it packs them in turn and resolves `workspace:*` to the versions.
  execFileSync("npx", ["-y", packageManager, "-r", ...filters, "pack", "--pack-destination", out], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const chosen = names.length > 0 ? withIncassoDependencies(names, packages) : [...packages.keys()].sort();
  const tarballs = chosen.map((name) => join(out, tarballName(name, packages.get(name).manifest.version)));
  const missing = tarballs.filter((file) => !existsSync(file));
  if (missing.length > 0) {
    console.error(`pnpm pack did not write ${missing.join(", ")}`);
    process.exit(1);
  }
  console.log(`packed ${packages.size} packages into ${out}`);
  console.log(`install ${names.length > 0 ? names.join(" ") : "every package"} in your project with:\n`);
  console.log(`npm install ${tarballs.join(" ")}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main(process.argv.slice(2));
