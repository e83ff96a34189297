// Builds the workspace packages whose build is missing or older than their sources, and nothing
// else: what `pnpm start` runs before the server (issue 32, item 6). A package is up to date when
// every file its exports name exists and its oldest dist file is newer than the newest of its
// inputs (src without the tests, package.json, tsconfig.json, and the root tsconfig.base.json and
// tsup.config.json every build reads). `pnpm build` still builds everything.
//
//   node scripts/build-changed.mjs          build what is stale, say why on screen
//   node scripts/build-changed.mjs --check  list what is stale, build nothing (exit 1 when any)
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

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

/** The oldest modification time of the files under a folder; undefined when it holds none. */
function oldestOutput(path) {
  let oldest;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    const time = entry.isDirectory() ? oldestOutput(full) : statSync(full).mtimeMs;
    if (time !== undefined && (oldest === undefined || time < oldest)) oldest = time;
  }
  return oldest;
}

/** Every file path an exports map names (all conditions), relative to the package. */
function exportedFiles(exports) {
  if (typeof exports === "string") return [exports];
  if (exports === null || typeof exports !== "object") return [];
  return Object.values(exports).flatMap(exportedFiles);
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
  const inputs = [join(dir, "src"), join(dir, "package.json"), join(dir, "tsconfig.json"), ...SHARED_INPUTS];
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
      builds.push({ name: pkg.name, dir, reason: staleReason(dir, pkg) });
    }
  }
  return builds;
}

/** pnpm as it was started (`pnpm start` sets npm_execpath), else the pinned one through npx. */
function pnpmCommand() {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm/.test(execPath) && /\.[cm]?js$/.test(execPath)) return [process.execPath, [execPath]];
  return ["npx", ["-y", "pnpm@10.34.8"]];
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
    `building packages (first start only): ${stale.length} packages, about two minutes on a quiet machine…`,
  );
} else {
  console.log(`building ${stale.length} changed package(s): ${stale.map((b) => b.name).join(", ")}…`);
}
const started = Date.now();
const [command, prefix] = pnpmCommand();
// pnpm runs the selected packages' builds in dependency order.
const result = spawnSync(
  command,
  [...prefix, "-r", "--reporter=append-only", ...stale.flatMap((b) => ["--filter", b.name]), "build"],
  { cwd: root, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 },
);
if (result.status !== 0) {
  // The builds' own output only when one failed: a good build's lines would bury the start's.
  process.stdout.write(result.stdout ?? "");
  process.stderr.write(result.stderr ?? "");
  console.error("the build failed (its output is above)");
  process.exit(result.status ?? 1);
}
console.log(
  `built in ${((Date.now() - started) / 1000).toFixed(1)} s; the next start builds only what changed`,
);
