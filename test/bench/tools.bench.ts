// Throughput of the two public tools beside GET /ping on the reference server (issue: "the
// endpoint's throughput beside GET /ping's"). Traffic goes to 127.0.0.1 only, for a bounded time.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const serverScript = fileURLToPath(new URL("./serve-target.ts", import.meta.url));

const child = spawn(process.execPath, ["--import", "tsx", serverScript, "incasso-node-tools"], {
  stdio: ["ignore", "pipe", "inherit"],
});
const port = await new Promise<number>((resolve, reject) => {
  child.stdout.once("data", (d: Buffer) => resolve(Number(d.toString().trim())));
  child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
});

const cases = [
  { name: "GET /ping", path: "/api/v1/ping", method: "GET" as const },
  {
    name: "POST /tools/wik (10 years of interest)",
    path: "/api/v1/tools/wik",
    method: "POST" as const,
    body: JSON.stringify({
      amount_cents: 1_250_000,
      debtor_type: "business",
      due_date: "2016-06-01",
      include_vat: true,
    }),
  },
  {
    name: "POST /tools/rol-router",
    path: "/api/v1/tools/rol-router",
    method: "POST" as const,
    body: JSON.stringify({ woonplaats: "Assen", naam: "Van der Berg B.V." }),
  },
];

console.log(`Reference server (node:http), 32 connections, ${DURATION} s each, Node ${process.version}\n`);
console.log("| request | req/s | p50 ms | p99 ms |");
console.log("|---|---:|---:|---:|");
try {
  for (const c of cases) {
    const opts = {
      url: `http://127.0.0.1:${port}${c.path}`,
      method: c.method,
      connections: 32,
      headers: { "content-type": "application/json" },
      ...(c.body ? { body: c.body } : {}),
    };
    await autocannon({ ...opts, duration: 2 });
    const r = await autocannon({ ...opts, duration: DURATION });
    if (r.non2xx > 0) throw new Error(`${c.name}: ${r.non2xx} non-2xx answers`);
    console.log(`| ${c.name} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} |`);
  }
} finally {
  child.kill();
}
