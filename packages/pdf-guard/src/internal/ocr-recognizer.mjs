// The recogniser thread of OCR (decision pdf-guard-ocr, "Memory"): tesseract.js starts its
// recogniser as a worker thread of its own from the script given as `workerPath`, and this is that
// script. It caps the thread's memory, then loads tesseract.js's own node worker script unchanged.
//
// tesseract.js's recogniser is emscripten code in WebAssembly: its memory (the models, the decoded
// page and every buffer tesseract makes of it) is one WebAssembly.Memory that only ever grows, by
// `Memory.prototype.grow`, and lies outside the V8 heap and outside the PDF worker's ArrayBuffer
// watchdog. Refusing `grow` beyond the allowance makes emscripten's heap resize fail, the
// allocation return nothing, and the job either ends with an error or (when leptonica gives up on
// the image) answers with no text; each refusal is counted, and the PDF worker then leaves the page
// unread and retires this thread. A hand-written hook because neither
// tesseract.js nor emscripten's build of it takes a memory cap (its maximum is built in: 2 GiB).
//
// Protocol, set up by ocr-pages.mjs through this thread's environment (a worker thread starts with
// a copy of its parent's `process.env`; tesseract.js passes nothing else):
// INCASSO_OCR_RECOGNIZER = { channel, script, allowanceBytes }. The thread makes a
// SharedArrayBuffer of Int32 counters (SLOT) and posts it on the BroadcastChannel
// `channel`; the PDF worker, listening there since before it started the thread, reads the
// thread's memory from it and writes the allowance into it.
import { createRequire } from "node:module";
import { BroadcastChannel, parentPort } from "node:worker_threads";

/** Slots of the shared counters, in KiB. */
const SLOT = { wasm: 0, js: 1, allowance: 2, refused: 3 };
const KIB = 1024;

const settings = /** @type {{ channel: string, script: string, allowanceBytes: number }} */ (
  JSON.parse(process.env.INCASSO_OCR_RECOGNIZER ?? "null")
);
const counters = new Int32Array(new SharedArrayBuffer(4 * 4));
// An Int32 of KiB holds up to 2 TiB: anything larger is no limit.
Atomics.store(
  counters,
  SLOT.allowance,
  Math.min(2 ** 31 - 1, Math.max(0, Math.floor(settings.allowanceBytes / KIB))),
);
const channel = new BroadcastChannel(settings.channel);
channel.postMessage({ counters: counters.buffer });
// The PDF worker asks a recogniser that failed to start to end, having no other handle on it.
channel.onmessage = (/** @type {any} */ event) => {
  if (event.data?.stop === true) process.exit(0);
};
// The channel must not keep the thread alive once tesseract.js ends it.
channel.unref();

/** This thread's JavaScript memory (heap, and buffers such as the page and the models' files). */
function jsBytes() {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/** @type {Set<WebAssembly.Memory>} */
const memories = new Set();

/** Bytes of every WebAssembly memory of this thread. */
function wasmBytes() {
  let sum = 0;
  for (const memory of memories) sum += memory.buffer.byteLength;
  return sum;
}

function publish() {
  Atomics.store(counters, SLOT.wasm, Math.ceil(wasmBytes() / KIB));
  Atomics.store(counters, SLOT.js, Math.ceil(jsBytes() / KIB));
}

/** @param {number} bytes */
function refuse(bytes) {
  Atomics.add(counters, SLOT.refused, 1);
  publish();
  return new RangeError(
    `OCR needs more than its memory allowance (${Math.round(bytes / 1048576)} MiB asked, ${Math.round((Atomics.load(counters, SLOT.allowance) * KIB) / 1048576)} MiB allowed)`,
  );
}

// The memory emscripten makes is exported by the module, so it is seen when the module is
// instantiated; what it starts with counts against the allowance as well.
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = /** @type {typeof WebAssembly.instantiate} */ (
  async function instantiateWithin(/** @type {any} */ source, /** @type {any} */ imports) {
    const result = /** @type {any} */ (await instantiate.call(WebAssembly, source, imports));
    const instance = result instanceof WebAssembly.Instance ? result : result.instance;
    for (const value of Object.values(instance.exports)) {
      if (value instanceof WebAssembly.Memory) memories.add(value);
    }
    const total = wasmBytes() + jsBytes();
    if (total > Atomics.load(counters, SLOT.allowance) * KIB) throw refuse(total);
    publish();
    return result;
  }
);

const grow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function growWithin(/** @type {number} */ pages) {
  memories.add(this);
  const after = wasmBytes() + pages * 65536 + jsBytes();
  if (after > Atomics.load(counters, SLOT.allowance) * KIB) throw refuse(after);
  const previous = grow.call(this, pages);
  publish();
  return previous;
};

// Every message from the PDF worker starts a job: the counters are brought up to date first.
parentPort?.on("message", publish);

// tesseract.js 7 rejects its `createWorker` promise only when loading the core fails: a failed
// language load or initialisation (models that do not fit in the allowance) leaves it pending for
// ever. So a failed job other than a recognition (whose own promise is rejected) is reported on the
// channel too, and the PDF worker gives up this thread.
if (parentPort) {
  const post = parentPort.postMessage.bind(parentPort);
  parentPort.postMessage = (/** @type {any} */ packet, /** @type {any} */ transfer) => {
    publish();
    if (packet?.status === "reject" && packet.action !== "recognize") {
      channel.postMessage({ failed: `${packet.action}: ${String(packet.data)}` });
    }
    return post(packet, transfer);
  };
}

// An error nothing caught in this thread would reach the PDF worker as an "error" event that
// tesseract.js does not listen for, and end it; instead it is reported on the channel, and the PDF
// worker gives up the page and ends this thread.
process.on("uncaughtException", (error) => {
  channel.postMessage({ failed: error instanceof Error ? error.message : String(error) });
});

createRequire(import.meta.url)(settings.script);
