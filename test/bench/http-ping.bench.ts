// GET /ping throughput and p99 latency through h3 on node:http, Express and Fastify, beside a bare
// route on each as the ceiling (issue: reference server >= 70% of bare node:http; each adapter >=
// 80% of its framework's bare route). Traffic goes to 127.0.0.1 only, for a bounded time.
import { spawn, spawnSync } from "node:child_process";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
// The machine's speed drifts by a fifth or more within minutes, so one measurement of each side in
// turn can put a slow minute on one side only: each pair is measured in several rounds, the side
// measured first alternating, and the ratio reported is the median of the rounds' ratios.
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
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

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

console.log(
  `GET /ping, 32 connections, ${DURATION} s each after a 2 s warm-up, ${ROUNDS} rounds per pair (the side measured first alternating; medians shown), ${cpus().length} cores, Node ${process.version}${PIN ? ", load generator and server pinned to separate cores" : ""}\n`,
);
console.log(
  "| server | req/s | p99 ms | ceiling | req/s | p99 ms | ratio (median) | ratios of the rounds | target |",
);
console.log("|---|---:|---:|---|---:|---:|---:|---|---:|");
const only = process.env.BENCH_ONLY;
for (const [ours, bare, target] of [...pairs, ...references.map(([a, b]) => [a, b, 0] as const)]) {
  if (only !== undefined && !ours.includes(only)) continue;
  const a: { rps: number; p99: number }[] = [];
  const b: { rps: number; p99: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      a.push(await measure(ours));
      b.push(await measure(bare));
    } else {
      b.push(await measure(bare));
      a.push(await measure(ours));
    }
  }
  const ratios = a.map((x, i) => x.rps / (b[i] as { rps: number }).rps);
  const ratio = median(ratios);
  const pct = (r: number) => `${(r * 100).toFixed(0)}%`;
  console.log(
    `| ${ours} | ${median(a.map((x) => x.rps)).toFixed(0)} | ${median(a.map((x) => x.p99))} | ${bare} | ${median(b.map((x) => x.rps)).toFixed(0)} | ${median(b.map((x) => x.p99))} | ${pct(ratio)} | ${ratios.map(pct).join(", ")} | ${target === 0 ? "reference" : `≥ ${target * 100}% ${ratio >= target ? "met" : "NOT met"}`} |`,
  );
}
