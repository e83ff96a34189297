// Builds the workspace packages whose build is missing or older than their sources, and nothing
// else: what `pnpm start` runs before the server (issue 32, item 6). A package is up to date when
// every JavaScript file its exports name exists and its oldest dist file is newer than the newest
// of its inputs (src without the tests, package.json, tsconfig.json, its own tsup.config.ts and
// scripts when it has them, and the root tsconfig.base.json and tsup.config.json every build
// reads). It builds the JavaScript only, side by side; `pnpm build` builds everything, declaration
// files included.
//
//   node scripts/build-changed.mjs          build what is stale, say why on screen
//   node scripts/build-changed.mjs --check  list what is stale, build nothing (exit 1 when any)
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { delimiter, join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const SHARED_INPUTS = ["tsconfig.base.json", "tsup.config.json"].map((f) => join(root, f));

/** The newest modification time under `path` (a file or a folder), tests left out; 0 when absent. */
function newestInput(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return /\.test\.[cm]?[jt]s$/.test(path) ? 0 : stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestInput(join(path, entry)));
  return newest;
}

/**
 * The oldest modification time of the files under a folder, declaration files left out (this
 * script does not write them, so an older one must not make the package look stale); undefined
 * when it holds none.
 */
function oldestOutput(path) {
  let oldest;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    if (!entry.isDirectory() && /\.d\.[cm]?ts(\.map)?$/.test(entry.name)) continue;
    const time = entry.isDirectory() ? oldestOutput(full) : statSync(full).mtimeMs;
    if (time !== undefined && (oldest === undefined || time < oldest)) oldest = time;
  }
  return oldest;
}

/** Every JavaScript file an exports map names (all conditions but `types`), relative to the package. */
function exportedFiles(exports) {
  if (typeof exports === "string") return [exports];
  if (exports === null || typeof exports !== "object") return [];
  return Object.entries(exports).flatMap(([condition, target]) =>
    condition === "types" ? [] : exportedFiles(target),
  );
}

/** Why the package's build is stale, or undefined when it is up to date. */
function staleReason(dir, pkg) {
  const dist = join(dir, "dist");
  if (!existsSync(dist)) return "not built";
  const missing = exportedFiles(pkg.exports ?? {}).find(
    (file) => file.startsWith("./dist/") && !existsSync(join(dir, file)),
  );
  if (missing) return `${missing} missing`;
  const built = oldestOutput(dist);
  if (built === undefined) return "not built";
  const inputs = [
    join(dir, "src"),
    join(dir, "package.json"),
    join(dir, "tsconfig.json"),
    // A package's own build steps (case-system's tsup.config.ts and licence script).
    join(dir, "tsup.config.ts"),
    join(dir, "scripts"),
    ...SHARED_INPUTS,
  ];
  const changed = Math.max(...inputs.map(newestInput));
  return changed > built ? "sources changed" : undefined;
}

/** The workspace packages with a build script, each with its name and why it is stale (if so). */
function workspaceBuilds() {
  const builds = [];
  for (const group of ["packages", "adapters"]) {
    for (const name of readdirSync(join(root, group))) {
      const dir = join(root, group, name);
      if (!existsSync(join(dir, "package.json"))) continue;
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      if (!pkg.scripts?.build) continue;
      builds.push({ name: pkg.name, dir, pkg, reason: staleReason(dir, pkg) });
    }
  }
  return builds;
}

/**
 * The package's own build script without its declaration step (`tsc -p tsconfig.json`) and without
 * `--clean`: the server runs on the JavaScript alone. `pnpm build` still writes the declaration
 * files; without `--clean` those of an earlier full build stay where they are.
 */
function javascriptBuild(pkg) {
  return pkg.scripts.build.replace(/\s--clean(?=\s|$)/, "").replace(/ && tsc -p tsconfig\.json(?= |$)/, "");
}

/** Runs one package's JavaScript build through the shell, its own and the root's binaries first. */
function runBuild(b) {
  return new Promise((resolve) => {
    const path = [
      join(b.dir, "node_modules", ".bin"),
      join(root, "node_modules", ".bin"),
      process.env.PATH,
    ].join(delimiter);
    const child = spawn("sh", ["-c", javascriptBuild(b.pkg)], {
      cwd: b.dir,
      env: { ...process.env, PATH: path },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("close", (status) => resolve({ ...b, status, output }));
  });
}

const builds = workspaceBuilds();
const stale = builds.filter((b) => b.reason !== undefined);
if (process.argv.includes("--check")) {
  for (const b of stale) console.log(`${b.name}: ${b.reason}`);
  process.exit(stale.length === 0 ? 0 : 1);
}
if (stale.length === 0) process.exit(0);
if (stale.length === builds.length && stale.every((b) => b.reason === "not built")) {
  console.log(
    `building packages (first start only): ${stale.length} packages, JavaScript only, about 15 s on a quiet machine…`,
  );
} else {
  console.log(`building ${stale.length} changed package(s): ${stale.map((b) => b.name).join(", ")}…`);
}
const started = Date.now();
// The workspace's own packages are external to each other's bundles (tsup leaves dependencies
// out), so the builds need no order and run side by side, one per core.
const queue = [...stale];
const failed = [];
await Promise.all(
  Array.from({ length: Math.min(queue.length, Math.max(1, availableParallelism())) }, async () => {
    for (let b = queue.shift(); b !== undefined; b = queue.shift()) {
      const result = await runBuild(b);
      if (result.status !== 0) failed.push(result);
    }
  }),
);
if (failed.length > 0) {
  // The builds' own output only when one failed: a good build's lines would bury the start's.
  for (const f of failed) process.stderr.write(`${f.name}:\n${f.output}\n`);
  console.error(`the build of ${failed.map((f) => f.name).join(", ")} failed (its output is above)`);
  process.exit(1);
}
console.log(
  `built in ${((Date.now() - started) / 1000).toFixed(1)} s; the next start builds only what changed`,
);
