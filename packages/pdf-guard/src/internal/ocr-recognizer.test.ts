// The recogniser thread's memory cap (decision pdf-guard-ocr, "Memory"): ocr-recognizer.mjs is
// started as tesseract.js starts it, with its settings in the environment, but loads a stand-in
// script instead of tesseract.js's, which grows a WebAssembly memory as emscripten does.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BroadcastChannel, Worker } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import { holdOcrWithin, ocrMemoryBytes } from "./ocr-pages.mjs";

const folder = mkdtempSync(join(tmpdir(), "incasso-ocr-recognizer-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// Grows a memory of one page (64 KiB) by 16 pages, then by 2,000 pages (125 MiB), and answers
// what each growth did.
const STAND_IN = `
const { parentPort } = require("node:worker_threads");
const memory = new WebAssembly.Memory({ initial: 1 });
const tries = [16, 2000].map((pages) => {
  try { memory.grow(pages); return "grew"; } catch (error) { return error.name + ": " + error.message; }
});
parentPort.postMessage({ tries, bytes: memory.buffer.byteLength });
`;

async function runCapped(allowanceBytes: number) {
  const script = join(folder, "stand-in.cjs");
  writeFileSync(script, STAND_IN);
  const name = `incasso-ocr-test-${allowanceBytes}`;
  const channel = new BroadcastChannel(name);
  const counters = new Promise<Int32Array>((resolve) => {
    channel.onmessage = (event) => {
      const data = (event as unknown as { data: { counters?: SharedArrayBuffer } }).data;
      if (data.counters) resolve(new Int32Array(data.counters));
    };
  });
  const worker = new Worker(new URL("./ocr-recognizer.mjs", import.meta.url), {
    env: { INCASSO_OCR_RECOGNIZER: JSON.stringify({ channel: name, script, allowanceBytes }) },
    execArgv: [],
  });
  try {
    const answer = await new Promise<{ tries: string[]; bytes: number }>((resolve) =>
      worker.once("message", resolve),
    );
    const shared = await counters;
    return {
      ...answer,
      wasmKib: Atomics.load(shared, 0),
      allowanceKib: Atomics.load(shared, 2),
      refused: Atomics.load(shared, 3),
    };
  } finally {
    channel.close();
    await worker.terminate();
  }
}

describe("the recogniser's memory cap", () => {
  it("refuses a WebAssembly memory growth past the allowance, lets one within it, and counts both", async () => {
    // 64 MiB: room for the thread's own heap and 1 MiB more, not for 125 MiB more.
    const r = await runCapped(64 * 1024 * 1024);
    expect(r.tries[0]).toBe("grew");
    expect(r.tries[1]).toMatch(
      /^RangeError: OCR needs more than its memory allowance \(\d+ MiB asked, 64 MiB allowed\)$/,
    );
    expect(r.bytes).toBe(17 * 65536);
    expect(r.wasmKib).toBe(17 * 64);
    expect(r.allowanceKib).toBe(64 * 1024);
    expect(r.refused).toBe(1);
  });

  it("lets the same growth through under a larger allowance", async () => {
    const r = await runCapped(1024 * 1024 * 1024);
    expect(r.tries).toEqual(["grew", "grew"]);
    expect(r.bytes).toBe(2017 * 65536);
    expect(r.refused).toBe(0);
  });

  it("counts nothing for OCR on a thread that never read a scan", () => {
    expect(ocrMemoryBytes()).toBe(0);
    expect(holdOcrWithin(1024)).toBe(0);
  });
});
