/**
 * Verifications per second of a 2 KB delivery (issue target: >= 200,000/s in one process).
 * Run: pnpm exec tsx packages/webhook-signing/bench/verify.bench.ts
 *
 * Each case is warmed up, then timed in rounds of about 200 ms with process.hrtime. The rounds are
 * interleaved (round 1 of every case, then round 2 of every case, …) so that a change in the
 * machine's load during the run touches every case alike. The table shows the median and the best
 * of the rounds: on a shared machine the best round is the least disturbed one. The load average
 * is printed before and after. The two "floor" rows are the bare node:crypto work on the same
 * input, the least any verifier can do: HMAC-SHA256 of timestamp + "." + body, the hex header
 * decoded, and a timing-safe compare. The last rows run one process per core at once.
 */

import { fork } from "node:child_process";
import { createHmac, timingSafeEqual } from "node:crypto";
import { availableParallelism, cpus, loadavg, machine } from "node:os";
import { fileURLToPath } from "node:url";
import { constructWebhookEvent, signWebhook, verifyWebhook, type WebhookHeadersInput } from "../src/index.js";

const SECRET = "whsec_benchmark_secret_0123456789abcdef";
const OLD_SECRET = "whsec_previous_secret_0123456789abcdef";
const TIMESTAMP = 1795255200;

/** A real-looking event padded with an unknown field to exactly 2048 bytes of UTF-8. */
function body2k(): string {
  const event = {
    id: "evt_9f2c4e1a7b3d5c80",
    object: "event",
    type: "payment.received",
    created_at: "2026-11-21T10:00:00Z",
    data: {
      order_id: "ord_0123456789abcdef",
      case_number: "2026-000123",
      reference: "Café De Gouden Leeuw – factuur €125,00",
      case_event: "case_payments",
    },
    padding: "",
  };
  const base = Buffer.byteLength(JSON.stringify(event, null, 2));
  event.padding = "x".repeat(2048 - base);
  const text = JSON.stringify(event, null, 2);
  if (Buffer.byteLength(text) !== 2048) throw new Error("body is not 2048 bytes");
  return text;
}

const BODY = body2k();
const BODY_BYTES = Buffer.from(BODY);
const SIGNED = signWebhook({ body: BODY, secret: SECRET, timestamp: TIMESTAMP });
const OLD_SIGNED = signWebhook({ body: BODY, secret: OLD_SECRET, timestamp: TIMESTAMP });
// What Node hands a receiver: lower-case names, a dozen ordinary headers besides ours.
const NODE_HEADERS: WebhookHeadersInput = {
  host: "client.example",
  "user-agent": "incasso-webhooks",
  "content-type": "application/json",
  "content-length": "2048",
  accept: "*/*",
  "accept-encoding": "gzip, deflate",
  connection: "keep-alive",
  "x-forwarded-for": "203.0.113.7",
  "x-forwarded-proto": "https",
  "x-request-id": "req_0123456789",
  "x-service-signature": SIGNED["X-Service-Signature"],
  "x-service-timestamp": SIGNED["X-Service-Timestamp"],
  "x-service-event": SIGNED["X-Service-Event"],
};
const WEB_HEADERS = new Headers(NODE_HEADERS as Record<string, string>);
const ROTATION_HEADERS = { ...NODE_HEADERS, "x-service-signature": OLD_SIGNED["X-Service-Signature"] };
const OPTIONS = { now: TIMESTAMP };
const SIGNATURE_HEX = SIGNED["X-Service-Signature"];
const TIMESTAMP_TEXT = String(TIMESTAMP);

const cases: Record<string, () => unknown> = {
  // The same steps verifyWebhook takes for each input form, and nothing else.
  "floor, string body: createHmac + hex decode + timingSafeEqual": () =>
    timingSafeEqual(
      createHmac("sha256", SECRET).update(`${TIMESTAMP_TEXT}.${BODY}`, "utf8").digest(),
      Buffer.from(SIGNATURE_HEX, "hex"),
    ),
  "floor, Buffer body: createHmac + hex decode + timingSafeEqual": () =>
    timingSafeEqual(
      createHmac("sha256", SECRET).update(`${TIMESTAMP_TEXT}.`, "latin1").update(BODY_BYTES).digest(),
      Buffer.from(SIGNATURE_HEX, "hex"),
    ),
  "verifyWebhook, string body, Node headers": () => verifyWebhook(BODY, NODE_HEADERS, SECRET, OPTIONS),
  "verifyWebhook, Buffer body, Node headers": () => verifyWebhook(BODY_BYTES, NODE_HEADERS, SECRET, OPTIONS),
  "verifyWebhook, string body, web Headers": () => verifyWebhook(BODY, WEB_HEADERS, SECRET, OPTIONS),
  "verifyWebhook, 2 secrets, second matches": () =>
    verifyWebhook(BODY, ROTATION_HEADERS, [SECRET, OLD_SECRET], OPTIONS),
  "constructWebhookEvent (verify + JSON parse)": () =>
    constructWebhookEvent(BODY, NODE_HEADERS, SECRET, OPTIONS),
  "signWebhook, string body, eventType given": () =>
    signWebhook({ body: BODY, secret: SECRET, timestamp: TIMESTAMP, eventType: "payment.received" }),
};

type Rate = { median: number; best: number };

function round(fn: () => unknown, ms: number): number {
  let n = 0;
  const start = process.hrtime.bigint();
  const stop = start + BigInt(ms * 1e6);
  let now = start;
  while (now < stop) {
    for (let i = 0; i < 1000; i++) fn();
    n += 1000;
    now = process.hrtime.bigint();
  }
  return n / (Number(now - start) / 1e9);
}

/** Warms every case up, then times `rounds` interleaved rounds of each. */
function measureAll(fns: Record<string, () => unknown>, rounds = 9, roundMs = 200): Record<string, Rate> {
  for (const fn of Object.values(fns)) round(fn, 300);
  const rates: Record<string, number[]> = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(fns)) rates[name]?.push(round(fn, roundMs));
  }
  return Object.fromEntries(
    Object.entries(rates).map(([name, list]) => {
      list.sort((a, b) => a - b);
      return [
        name,
        { median: list[Math.floor(list.length / 2)] as number, best: list[list.length - 1] as number },
      ];
    }),
  );
}

const ROUNDS = 9;

const workerCase = process.argv[2] === "--child" ? process.argv[3] : undefined;
if (workerCase !== undefined) {
  const fn = cases[workerCase];
  if (!fn) throw new Error(`unknown case ${workerCase}`);
  process.send?.(measureAll({ [workerCase]: fn }, ROUNDS)[workerCase]);
} else {
  const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
  console.log(
    `Node ${process.version}, ${machine()}, ${cpus()[0]?.model ?? "?"}, ${availableParallelism()} cores, ` +
      `load average before: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
  );
  console.log(`body: ${Buffer.byteLength(BODY)} bytes\n`);
  console.log(`| case | ops/s, median of ${ROUNDS} | ops/s, best of ${ROUNDS} | µs/op (best) |`);
  console.log("|---|---:|---:|---:|");
  for (const [name, { median, best }] of Object.entries(measureAll(cases, ROUNDS))) {
    console.log(`| ${name} | ${fmt(median)} | ${fmt(best)} | ${(1e6 / best).toFixed(2)} |`);
  }
  // One process per core, measuring at the same time: the machine's throughput. Processes rather
  // than worker threads because tsx's loader does not reach worker threads on Node 20.
  const processes = availableParallelism();
  for (const name of [
    "verifyWebhook, string body, Node headers",
    "verifyWebhook, Buffer body, Node headers",
  ]) {
    const rates = await Promise.all(
      Array.from(
        { length: processes },
        () =>
          new Promise<Rate>((resolve, reject) => {
            const child = fork(fileURLToPath(import.meta.url), ["--child", name], {
              execArgv: ["--import", "tsx"],
            });
            child.once("message", (rate) => {
              resolve(rate as Rate);
              child.disconnect();
            });
            child.once("error", reject);
          }),
      ),
    );
    const median = rates.reduce((sum, r) => sum + r.median, 0);
    const best = rates.reduce((sum, r) => sum + r.best, 0);
    console.log(
      `| ${name}, ${processes} processes at once (sum) | ${fmt(median)} | ${fmt(best)} | ${(1e6 / (best / processes)).toFixed(2)} per process |`,
    );
  }
  console.log(
    `\nload average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
}
