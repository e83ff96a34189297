// GET /ping throughput and p99 latency through h3 on node:http, Express and Fastify, beside a bare
// route on each as the ceiling (issue: reference server >= 70% of bare node:http; each adapter >=
// 80% of its framework's bare route). Traffic goes to 127.0.0.1 only, for a bounded time.
import { spawn, spawnSync } from "node:child_process";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const serverScript = fileURLToPath(new URL("./serve-target.ts", import.meta.url));
const distTsconfig = fileURLToPath(new URL("./tsconfig.dist.json", import.meta.url));
// On Linux with taskset, the load generator (this process) runs on the first core and each server
// on the last, so the scheduler cannot put both on one core for part of a run: that made the
// ceilings themselves vary by a factor of two between runs on the 2-core benchmark machine.
const PIN =
  process.platform === "linux" &&
  cpus().length >= 2 &&
  process.env.BENCH_PIN !== "0" &&
  spawnSync("taskset", ["-p", "-c", "0", String(process.pid)], { stdio: "ignore" }).status === 0;

async function measure(target: string) {
  const args = [process.execPath, "--import", "tsx", serverScript, target];
  const [command, ...rest] = PIN ? ["taskset", "-c", String(cpus().length - 1), ...args] : args;
  // The servers import the built packages (dist), as a user runs them, not the TypeScript source
  // that the root tsconfig's paths would hand to tsx.
  const env = { ...process.env, TSX_TSCONFIG_PATH: distTsconfig };
  const child = spawn(command as string, rest, { stdio: ["ignore", "pipe", "inherit"], env });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once("data", (d: Buffer) => resolve(Number(d.toString().trim())));
    child.once("exit", (code) => reject(new Error(`${target} exited with ${code}`)));
  });
  const url = `http://127.0.0.1:${port}/api/v1/ping`;
  try {
    await autocannon({ url, connections: 32, duration: 2 }); // warm-up
    const r = await autocannon({ url, connections: 32, duration: DURATION });
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`${target}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    return { rps: r.requests.average, p99: r.latency.p99 };
  } finally {
    child.kill();
  }
}

const pairs = [
  ["incasso-node", "bare-node", 0.7],
  ["incasso-express", "bare-express", 0.8],
  ["incasso-fastify", "bare-fastify", 0.8],
] as const;
// Not targets: a bare h3 app (no API code) against the same ceilings, so a reader can tell what h3
// and srvx cost on each transport from what the API adds.
const references = [
  ["h3-node", "bare-node"],
  ["h3-fastify", "bare-fastify"],
] as const;

console.log(
  `GET /ping, 32 connections, ${DURATION} s each, ${cpus().length} cores, Node ${process.version}${PIN ? ", load generator and server pinned to separate cores" : ""}\n`,
);
console.log("| server | req/s | p99 ms | ceiling | req/s | p99 ms | ratio | target |");
console.log("|---|---:|---:|---|---:|---:|---:|---:|");
const only = process.env.BENCH_ONLY;
for (const [ours, bare, target] of [...pairs, ...references.map(([a, b]) => [a, b, 0] as const)]) {
  if (only !== undefined && !ours.includes(only)) continue;
  const a = await measure(ours);
  const b = await measure(bare);
  const ratio = a.rps / b.rps;
  console.log(
    `| ${ours} | ${a.rps.toFixed(0)} | ${a.p99} | ${bare} | ${b.rps.toFixed(0)} | ${b.p99} | ${(ratio * 100).toFixed(0)}% | ${target === 0 ? "reference" : `≥ ${target * 100}% ${ratio >= target ? "met" : "NOT met"}`} |`,
  );
}
