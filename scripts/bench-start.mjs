// How long `pnpm start` takes to a 200 from GET /api/v1/ping (issue 32, item 6), on a port of its
// own and a data directory kept between runs, from the moment the command is started. `--first`
// removes every package's dist and the data directory first, as on a fresh clone; without it
// nothing is removed, so the run measures a start with nothing changed. `--via npx` starts it as
// the README does (`npx -y pnpm@10.34.8 start`), `--via pnpm` with a pnpm on the PATH (or given in
// PNPM), `--via node` runs the start script's two commands without a package manager. Prints one
// line of JSON; docs/benchmarks/install-start-suite.md has the figures.
//
//   node scripts/bench-start.mjs --first --via npx
//   node scripts/bench-start.mjs --via pnpm
import { spawn } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const first = process.argv.includes("--first");
if (first) {
  for (const group of ["packages", "adapters"]) {
    for (const name of readdirSync(join(root, group))) {
      rmSync(join(root, group, name, "dist"), { recursive: true, force: true });
    }
  }
}
const port = 3900 + Math.floor(Math.random() * 90);
const dataDir = join(tmpdir(), "incasso-bench-start-data");
if (first) rmSync(dataDir, { recursive: true, force: true });
const via = process.argv[process.argv.indexOf("--via") + 1] ?? "npx";
const serveArgs = ["--port", String(port), "--data-dir", dataDir];
const commands = {
  npx: ["npx", ["-y", "pnpm@10.34.8", "start", ...serveArgs]],
  pnpm: [process.env.PNPM ?? "pnpm", ["start", ...serveArgs]],
  node: [
    "sh",
    ["-c", `node scripts/build-changed.mjs && node packages/app/dist/cli.js serve ${serveArgs.join(" ")}`],
  ],
};
if (!(via in commands)) throw new Error(`--via takes npx, pnpm or node, not ${via}`);
// Run under a shell that ignores the SIGTERM sent to the group and then prints `times`: the CPU
// the start used, all its processes counted, which the machine's load does not inflate as it does
// the wall-clock time.
const [command, args] = commands[via];
const quoted = [command, ...args].map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(" ");
const started = performance.now();
const child = spawn("bash", ["-c", `trap "" TERM; ${quoted}; times`], {
  cwd: root,
  stdio: ["ignore", "pipe", "inherit"],
  detached: true,
});
let output = "";
child.stdout.on("data", (chunk) => {
  output += chunk;
});
let seconds;
for (;;) {
  if (child.exitCode !== null) break;
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/ping`);
    if (res.status === 200) {
      seconds = (performance.now() - started) / 1000;
      break;
    }
  } catch {
    // Not listening yet.
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
}
process.kill(-child.pid, "SIGTERM");
await new Promise((resolve) => child.once("exit", resolve));
// `times` prints the shell's own user and system time, then its children's: "0m1.234s 0m0.210s".
const [childTimes = ""] = output.trim().split("\n").slice(-1);
const cpu = [...childTimes.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
  (sum, m) => sum + Number(m[1]) * 60 + Number(m[2]),
  0,
);
const building = output.split("\n").find((line) => line.startsWith("building ")) ?? null;
console.log(
  JSON.stringify({
    start: first ? "first" : "again",
    via,
    secondsToPing200: seconds === undefined ? null : Number(seconds.toFixed(2)),
    // Through npx or pnpm the signal ends the package manager before it waits for the server, so
    // the shell never learns the server's CPU: counted only without a package manager.
    cpuSeconds: via === "node" ? Number(cpu.toFixed(2)) : null,
    buildLine: building,
    loadAverage: loadavg().map((l) => Number(l.toFixed(1))),
  }),
);
if (seconds === undefined) {
  process.stdout.write(output);
  process.exit(1);
}
