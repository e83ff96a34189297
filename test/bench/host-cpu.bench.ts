// Server CPU time per request of GET /ping and POST /orders (3 invoices, no PDF, PostgreSQL) through
// each example host (examples/NAME/app.mjs createHost) against its framework's bare route (issue 15:
// the reference server at most 1.15x the CPU of a bare h3 app with the same route; each adapter at
// most 1.15x its framework's bare route). Throughput on the shared 2-core benchmark machine swings
// by a factor of two between rounds; the CPU a server spends on a fixed number of requests does not,
// so that is what is compared: utime + stime of the server process from /proc/PID/stat.
// Each server runs in its own process from the built packages, pinned to the last core when taskset
// is there (the load generator on the first). Traffic goes to 127.0.0.1 only, in fixed counts.
// BENCH_ROUNDS (3), BENCH_ONLY=express,azure (pairs whose host name contains one of the words),
// BENCH_ROUTES=ping or orders (both), BENCH_PING (30000), BENCH_ORDERS (2000).
// PostgreSQL: a throwaway database made with createdb on PGHOST/PGPORT/PGUSER (default
// 127.0.0.1:5432, postgres) and dropped at the end; each order server gets a fresh schema in it.
import { type ChildProcessByStdio, spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { benchOrderBody } from "../../packages/app/bench/bench-order.js";

const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const ROUTES = process.env.BENCH_ROUTES ?? "ping,orders";
const ONLY = process.env.BENCH_ONLY;
const PING = { warmup: 5000, count: Number(process.env.BENCH_PING ?? 30_000), connections: 4 };
const ORDERS = { warmup: 300, count: Number(process.env.BENCH_ORDERS ?? 2000), connections: 4 };
const TARGET = 1.15;

const serverScript = fileURLToPath(new URL("./host-target.ts", import.meta.url));
const distTsconfig = fileURLToPath(new URL("./tsconfig.dist.json", import.meta.url));
// As in http-ping.bench.ts: the load generator on the first core, each server on the last.
const PIN =
  process.platform === "linux" &&
  cpus().length >= 2 &&
  process.env.BENCH_PIN !== "0" &&
  spawnSync("taskset", ["-p", "-c", "0", String(process.pid)], { stdio: "ignore" }).status === 0;
const TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout?.trim()) || 100;

/** utime + stime of a process (every thread, GC and loader included), in clock ticks. */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name in parentheses: state is field 3, utime 14, stime 15 (proc(5)).
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

interface Started {
  child: ChildProcessByStdio<null, Readable, null>;
  port: number;
  key: string;
}

async function startServer(target: string, route: string, env: NodeJS.ProcessEnv): Promise<Started> {
  const args = [process.execPath, "--import", "tsx", serverScript, target, route];
  const [command, ...rest] = PIN ? ["taskset", "-c", String(cpus().length - 1), ...args] : args;
  // The servers import the built packages (dist), as a user runs them.
  const child = spawn(command as string, rest, {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env, TSX_TSCONFIG_PATH: distTsconfig },
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
    });
    child.once("exit", (code) => reject(new Error(`${target} exited with ${code}`)));
  });
  const { port, key } = JSON.parse(line) as { port: number; key: string };
  return { child, port, key };
}

async function stop(child: Started["child"]) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill();
  await exited;
}

type Fire = (port: number, key: string, amount: number, phase: string) => Promise<void>;

const check = (r: autocannon.Result, what: string) => {
  if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0)
    throw new Error(
      `${what}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts; status codes ${JSON.stringify(r.statusCodeStats)}`,
    );
};

const firePing: Fire = async (port, _key, amount, phase) => {
  const r = await autocannon({
    url: `http://127.0.0.1:${port}/api/v1/ping`,
    connections: PING.connections,
    amount,
  });
  check(r, `ping ${phase}`);
};

// Every order its own reference, customer and invoice numbers (as packages/app/bench/orders.bench.ts).
const fireOrders: Fire = async (port, key, amount, phase) => {
  let n = 0;
  const r = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: ORDERS.connections,
    amount,
    requests: [
      {
        method: "POST",
        path: "/api/v1/orders",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        setupRequest: (req) => {
          const i = n++;
          return {
            ...req,
            body: benchOrderBody({
              type: "pre-incasso",
              reference: `B-${phase}-${i}`,
              customerNumber: `${phase}-${i}`,
              n: i,
            }),
          };
        },
      },
    ],
  });
  check(r, `orders ${phase}`);
};

/** µs of server CPU per request over `count` requests after `warmup`, in a fresh server process. */
async function measure(target: string, route: "ping" | "orders", env: NodeJS.ProcessEnv): Promise<number> {
  const s = await startServer(target, route, env);
  const [fire, { warmup, count }] = route === "ping" ? [firePing, PING] : [fireOrders, ORDERS];
  try {
    await fire(s.port, s.key, warmup, "w");
    const pid = s.child.pid as number;
    const before = cpuTicks(pid);
    await fire(s.port, s.key, count, "m");
    const ticks = cpuTicks(pid) - before;
    return ((ticks / TICKS) * 1e6) / count;
  } finally {
    await stop(s.child);
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

// host, its bare reference, and what the reference is.
const pairs = [
  ["standalone", "h3-node", "bare h3 app on node:http (srvx toNodeHandler)"],
  ["express", "bare-express", "bare Express route"],
  ["fastify", "bare-fastify", "bare Fastify route"],
  ["fetch-runtime", "h3-srvx", "bare h3 app served by srvx serve"],
  ["azure", "bare-azure", "bare HttpHandler behind the same runner"],
] as const;

async function section(
  route: "ping" | "orders",
  envFor: (target: string, round: number) => NodeJS.ProcessEnv,
) {
  const { warmup, count, connections } = route === "ping" ? PING : ORDERS;
  const load0 = loadavg()[0] ?? 0;
  const rows: string[] = [];
  for (const [host, bare, what] of pairs) {
    if (ONLY !== undefined && !ONLY.split(",").some((word) => host.includes(word))) continue;
    const a: number[] = [];
    const b: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const one = async (t: string, into: number[]) => into.push(await measure(t, route, envFor(t, round)));
      if (round % 2 === 0) {
        await one(host, a);
        await one(bare, b);
      } else {
        await one(bare, b);
        await one(host, a);
      }
    }
    const ratios = a.map((x, i) => x / (b[i] as number));
    const ratio = median(ratios);
    rows.push(
      `| ${host} | ${median(a).toFixed(1)} | ${what} | ${median(b).toFixed(1)} | ${ratio.toFixed(2)} | ${ratios.map((r) => r.toFixed(2)).join(", ")} | ≤ ${TARGET} ${ratio <= TARGET ? "met" : "NOT met"} |`,
    );
    console.error(
      `${route} ${host}: ${a.map((x) => x.toFixed(1)).join(", ")} / ${b.map((x) => x.toFixed(1)).join(", ")}`,
    );
  }
  const title =
    route === "ping"
      ? `GET /ping: ${count} requests after ${warmup} to warm up`
      : `POST /orders (pre-incasso, 3 invoices, no PDF, PostgreSQL, a fresh schema per server): ${count} orders after ${warmup} to warm up`;
  console.log(
    `\n${title}, ${connections} connections, ${ROUNDS} rounds per pair (the side measured first alternating; medians shown). Load average (1 min) ${load0.toFixed(1)} → ${(loadavg()[0] ?? 0).toFixed(1)}.\n`,
  );
  console.log(
    "| host | µs CPU/request | bare reference | µs CPU/request | ratio (median) | ratios of the rounds | target |",
  );
  console.log("|---|---:|---|---:|---:|---|---:|");
  for (const row of rows) console.log(row);
}

console.log(
  `Server CPU (utime + stime from /proc/PID/stat, ${TICKS} ticks/s) per request, built packages, ${cpus().length} cores, Node ${process.version}${PIN ? ", load generator and server pinned to separate cores" : ""}.`,
);
if (ROUTES.includes("ping")) await section("ping", () => ({}));

if (ROUTES.includes("orders")) {
  const pg = {
    host: process.env.PGHOST ?? "127.0.0.1",
    port: process.env.PGPORT ?? "5432",
    user: process.env.PGUSER ?? "postgres",
  };
  const conn = ["-h", pg.host, "-p", pg.port, "-U", pg.user];
  const db = `incasso_bench_${process.pid}`;
  const made = spawnSync("createdb", [...conn, db], { encoding: "utf8" });
  if (made.status !== 0) {
    console.log(`\nPOST /orders skipped: createdb failed (${(made.error?.message ?? made.stderr).trim()})`);
  } else {
    try {
      const databaseUrl = `postgres://${pg.user}@${pg.host}:${pg.port}/${db}`;
      await section("orders", (t, round) => ({
        DATABASE_URL: databaseUrl,
        BENCH_SCHEMA: `b_${t.replaceAll("-", "_")}_${round}`,
      }));
    } finally {
      spawnSync("dropdb", [...conn, "--if-exists", db], { stdio: "inherit" });
    }
  }
}
