// Starts `incasso serve` (the built CLI, as an operator runs it) in its own process for the
// benchmarks that measure the server from outside: its event loop and its memory are its own,
// never shared with the load generator. Embedded PGlite in a temporary directory by default;
// BENCH_DATABASE_URL runs it on PostgreSQL (the schema is migrated by serve itself).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("../../..", import.meta.url).pathname;
const cli = join(root, "packages/app/dist/cli.js");

export interface ServeProcess {
  url: string;
  key: string;
  pid: number;
  /** Resident set size now and its peak since start (VmRSS, VmHWM of /proc/PID/status), in MiB. */
  memory(): { rssMb: number; peakMb: number };
  stop(): Promise<void>;
}

function storageArgs(dir: string): string[] {
  const url = process.env.BENCH_DATABASE_URL;
  return url ? ["--database-url", url] : ["--data-dir", dir];
}

/**
 * Runs `incasso serve` on a free port with `args` added, after making a live key whose limits
 * the benchmark cannot reach.
 */
export async function startServe(args: string[] = []): Promise<ServeProcess> {
  const dir = mkdtempSync(join(tmpdir(), "incasso-bench-"));
  const made = spawnSync(
    process.execPath,
    [
      cli,
      "keys",
      "create",
      "--organisation",
      `Bench ${Date.now()}`,
      "--mode",
      "live",
      "--per-minute",
      "1000000",
      "--per-day",
      "1000000",
      "--json",
      ...storageArgs(dir),
    ],
    { encoding: "utf8" },
  );
  if (made.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`keys create failed: ${made.stderr}`);
  }
  const key = String((JSON.parse(made.stdout) as { key: string }).key);
  const proc: ChildProcess = spawn(
    process.execPath,
    // BENCH_NODE_ARGS: flags for node itself, such as --cpu-prof to find where the time goes.
    [
      ...(process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean),
      cli,
      "serve",
      "--port",
      "0",
      ...storageArgs(dir),
      ...args,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    proc.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = out.match(/"url":"([^"]+)"/);
      if (match?.[1]) resolve(match[1]);
    });
    proc.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  const pid = proc.pid as number;
  return {
    url,
    key,
    pid,
    memory() {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const kb = (name: string) => Number(status.match(new RegExp(`${name}:\\s+(\\d+) kB`))?.[1] ?? 0);
      return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
    },
    async stop() {
      const exited = new Promise((r) => proc.once("exit", r));
      proc.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
