// Reading scanned pages (issue 30, point 5): a page without a text layer is rendered to an image
// with @napi-rs/canvas (through unpdf's canvas factory for pdf.js) and read by tesseract.js with
// the English and Dutch language data of the npm packages @tesseract.js-data/eng and
// @tesseract.js-data/nld. All four are optional dependencies: without them there is no OCR and
// `ocrAvailability()` says why. Nothing is fetched at run time (decision pdf-guard-ocr).
//
// Plain JavaScript, like parse-pdf.mjs, because the PDF worker loads it directly. parse-pdf.mjs
// loads it by path only when OCR is asked for, so it stays out of bundles of the package's main
// entry; the Node modules it needs are imported when OCR first runs, never at load.

// The languages read, in the order tesseract tries them: English first (labels such as "Total",
// "Amount due", and the digits), then Dutch.
const LANGUAGES = ["eng", "nld"];
// The model folder of the data packages: the integer LSTM models, the ones tesseract.js loads for
// its default engine (LSTM only); the other folder also holds the legacy engine's data.
const MODEL_FOLDER = "4.0.0_best_int";
// Pixels per inch a page is rendered at. 200 keeps body text (8-10 pt) at 22-28 pixels of
// x-height, enough for tesseract's LSTM; 300 would double the time for little gain.
const RENDER_DPI = 200;
// The largest image rendered, in pixels: a page larger than A3 is scaled down to it, which bounds
// the canvas memory (4 bytes a pixel) whatever page size a PDF declares.
const MAX_PIXELS = 12_000_000;
// A page whose text layer has fewer letters and digits than this is taken for a scan.
const MIN_TEXT_CHARS = 16;

// A recogniser with nothing to read for this long is stopped: its WebAssembly memory (the models
// and the last page's buffers, about 250 MB) is given back between bursts of scans.
const IDLE_STOP_MS = 15_000;
/** @type {ReturnType<typeof setTimeout> | null} */
let idleTimer = null;

// Least time left in the budget for a page to be begun.
const MIN_PAGE_MS = 1_000;

// What a page's reading resolves to when the budget ran out first.
const OUT_OF_TIME = Symbol("out of time");

// What a page's reading resolves to when the parse's memory budget has no room for it.
const OUT_OF_MEMORY = Symbol("out of memory");

// Rendering a page holds the canvas (4 bytes a pixel, native memory of @napi-rs/canvas, outside
// the ArrayBuffers the watchdog counts) and pdf.js's decoded image of the scan (ArrayBuffers, about
// as large again): a page is rendered only when this many bytes a pixel are left in the budget.
const RENDER_BYTES_PER_PIXEL = 8;

/**
 * OCR's share of the parse's memory budget (decision pdf-guard-ocr, "Memory"), kept by
 * {@link holdOcrWithin}: the counters the recogniser thread shares (ocr-recognizer.mjs), and the
 * canvas of the page being rendered.
 */
const memory = {
  /** @type {Int32Array | null} the recogniser's counters, in KiB; see ocr-recognizer.mjs */
  counters: null,
  /** @type {Set<Int32Array>} counters of retired recognisers whose threads have not ended yet */
  retiring: new Set(),
  /** Native bytes of the canvas being drawn; 0 between renders. */
  rendering: 0,
  /** @type {{ cancel(): void } | null} the render under way */
  render: null,
  /** @type {Promise<unknown> | null} the recognition under way */
  reading: null,
  /** Set when the budget had no room left for the page being read. */
  exceeded: false,
};
// The counters' slots (ocr-recognizer.mjs): WebAssembly memory, JavaScript memory, allowance.
const SLOT = { wasm: 0, js: 1, allowance: 2, refused: 3 };
const KIB = 1024;
// The largest allowance an Int32 of KiB holds (2 TiB): no limit.
const MAX_ALLOWANCE_KIB = 2 ** 31 - 1;

/** @type {Promise<OcrTools | { ok: false, reason: string }> | null} */
let loading = null;
/** @type {import("tesseract.js").Worker | null} */
let recognizer = null;
/** @type {Promise<import("tesseract.js").Worker> | null} */
let recognizerStarting = null;
/** @type {Promise<never> | null} rejects when the recogniser thread reports an uncaught error */
let recognizerFailed = null;
/** @type {BroadcastChannel | null} */
let recognizerChannel = null;
let recognizersStarted = 0;
// The recogniser's script (ours, which loads tesseract.js's own, TESSERACT_WORKER_SCRIPT, within
// the memory allowance); it lies beside this file, in src/internal and in dist alike.
const RECOGNIZER_SCRIPT = new URL("./ocr-recognizer.mjs", import.meta.url);
const TESSERACT_WORKER_SCRIPT = "src/worker-script/node/index.js";
/** @type {string | null} */
let languageFolder = null;
/** @type {NodeTools | null} */
let node = null;

/**
 * @typedef {{
 *   fs: typeof import("node:fs"),
 *   path: typeof import("node:path"),
 *   os: typeof import("node:os"),
 *   require: NodeJS.Require,
 *   workerThreads: typeof import("node:worker_threads"),
 * }} NodeTools
 */

/**
 * @typedef {{
 *   ok: true,
 *   CanvasFactory: new () => { create(w: number, h: number): { canvas: any, context: any }, destroy(c: unknown): void },
 *   tesseract: typeof import("tesseract.js"),
 * }} OcrTools
 */

/**
 * Whether a page's text layer is too thin to be the page's text: a scan has none, or a few stray
 * characters (a page number, a stamp).
 *
 * @param {string} text
 */
export function looksScanned(text) {
  return text.replace(/[^\p{L}\p{N}]/gu, "").length < MIN_TEXT_CHARS;
}

/**
 * Loads the optional OCR dependencies once per thread: the canvas, tesseract.js and the language
 * data. Resolves to the tools, or to `{ ok: false, reason }` naming what is missing.
 *
 * @returns {Promise<OcrTools | { ok: false, reason: string }>}
 */
export function loadOcrTools() {
  loading ??= (async () => {
    addArrayBufferTransfer();
    const { createRequire } = await import("node:module");
    node = {
      fs: await import("node:fs"),
      path: await import("node:path"),
      os: await import("node:os"),
      require: createRequire(import.meta.url),
      workerThreads: await import("node:worker_threads"),
    };
    /** @type {string[]} */
    const missing = [];
    let canvasModule = null;
    let tesseract = null;
    try {
      canvasModule = await import("@napi-rs/canvas");
    } catch {
      missing.push("@napi-rs/canvas");
    }
    try {
      tesseract = (await import("tesseract.js")).default;
    } catch {
      missing.push("tesseract.js");
    }
    for (const language of LANGUAGES) {
      if (modelFile(language) === null) missing.push(`@tesseract.js-data/${language}`);
    }
    if (missing.length > 0 || canvasModule === null || tesseract === null) {
      return { ok: false, reason: `not installed: ${missing.join(", ")}` };
    }
    const { createIsomorphicCanvasFactory } = await import("unpdf");
    const CanvasFactory = await createIsomorphicCanvasFactory(async () => canvasModule);
    return { ok: true, CanvasFactory, tesseract };
  })();
  return loading;
}

/**
 * pdf.js 5 packs font data with `ArrayBuffer.prototype.transferToFixedLength` (ES2024) when it
 * draws text; Node 20 lacks it, and pdf.js then leaves out the rest of the page. A page being
 * read by OCR may carry some text over its scan (a stamp, a page number), so the PDF worker's
 * thread gets a copying stand-in. Only this thread's own built-in is touched, and only where the
 * runtime lacks it.
 */
function addArrayBufferTransfer() {
  const proto = /** @type {any} */ (ArrayBuffer.prototype);
  if (typeof proto.transferToFixedLength === "function") return;
  Object.defineProperty(proto, "transferToFixedLength", {
    configurable: true,
    writable: true,
    value: function transferToFixedLength(/** @type {number | undefined} */ length) {
      const size = length ?? this.byteLength;
      const copy = new ArrayBuffer(size);
      new Uint8Array(copy).set(new Uint8Array(this, 0, Math.min(size, this.byteLength)));
      return copy;
    },
  });
}

/**
 * Whether OCR can run here, and if not, why: for the start line of a server.
 *
 * @returns {Promise<{ available: true } | { available: false, reason: string }>}
 *
 * @example
 * const ocr = await ocrAvailability(); // { available: true }
 */
export async function ocrAvailability() {
  const tools = await loadOcrTools();
  return tools.ok ? { available: true } : { available: false, reason: tools.reason };
}

/**
 * The gzipped model of one language from its data package, or null when the package is missing.
 *
 * @param {string} language
 */
function modelFile(language) {
  const { fs, path, require } = /** @type {NodeTools} */ (node);
  try {
    const folder = path.dirname(require.resolve(`@tesseract.js-data/${language}/package.json`));
    const file = path.join(folder, MODEL_FOLDER, `${language}.traineddata.gz`);
    return fs.existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

/**
 * tesseract.js reads every language from one folder (`langPath`), and each language's data comes
 * in a package of its own; so the two model files are linked (or, where links are not allowed,
 * copied) into one temporary folder of this thread, removed when the thread ends.
 */
function languagePath() {
  const { fs, path, os } = /** @type {NodeTools} */ (node);
  if (languageFolder !== null && fs.existsSync(languageFolder)) return languageFolder;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "incasso-ocr-"));
  for (const language of LANGUAGES) {
    const source = /** @type {string} */ (modelFile(language));
    const target = path.join(folder, `${language}.traineddata.gz`);
    try {
      fs.symlinkSync(source, target);
    } catch {
      fs.copyFileSync(source, target);
    }
  }
  process.once("exit", () => fs.rmSync(folder, { recursive: true, force: true }));
  languageFolder = folder;
  return folder;
}

/**
 * The thread's recognizer, started on first use and kept for the next scan (loading the models
 * takes longer than reading a page). It runs in ocr-recognizer.mjs, which holds its memory to the
 * allowance: what the parse's budget has left once this thread's own memory is counted.
 *
 * @param {OcrTools} tools
 * @param {number} allowanceBytes
 */
function startRecognizer(tools, allowanceBytes) {
  if (recognizer !== null) return Promise.resolve(recognizer);
  if (recognizerStarting) return recognizerStarting;
  const { path, require } = /** @type {NodeTools} */ (node);
  const { BroadcastChannel, threadId } = /** @type {NodeTools} */ (node).workerThreads;
  const channelName = `incasso-ocr-${process.pid}-${threadId}-${++recognizersStarted}`;
  const channel = new BroadcastChannel(channelName);
  /** @type {(reason: Error) => void} */
  let fail = () => undefined;
  const failed = new Promise((_, reject) => {
    fail = reject;
  });
  failed.catch(() => undefined);
  channel.onmessage = (/** @type {any} */ event) => {
    const data = event.data ?? {};
    if (data.counters instanceof SharedArrayBuffer) memory.counters = new Int32Array(data.counters);
    if (typeof data.failed === "string") fail(new Error(`OCR failed: ${data.failed}`));
  };
  channel.unref();
  // tesseract.js starts its thread synchronously inside createWorker, with a copy of this thread's
  // environment: the settings ride there (ocr-recognizer.mjs), and are taken away at once.
  process.env.INCASSO_OCR_RECOGNIZER = JSON.stringify({
    channel: channelName,
    script: path.join(path.dirname(require.resolve("tesseract.js/package.json")), TESSERACT_WORKER_SCRIPT),
    allowanceBytes: allowanceKib(allowanceBytes) * KIB,
  });
  let starting;
  try {
    starting = tools.tesseract.createWorker(LANGUAGES.join("+"), tools.tesseract.OEM.LSTM_ONLY, {
      langPath: languagePath(),
      gzip: true,
      // Never write the unpacked models anywhere (the default caches them in the working folder).
      cacheMethod: "none",
      // Without it tesseract.js throws a failed job's error from its message handler, which would
      // end the PDF worker; the job's own promise is rejected either way.
      errorHandler: () => undefined,
      workerPath: RECOGNIZER_SCRIPT,
    });
  } finally {
    delete process.env.INCASSO_OCR_RECOGNIZER;
  }
  recognizerStarting = Promise.race([starting, failed])
    .then(
      (worker) => {
        recognizer = /** @type {import("tesseract.js").Worker} */ (worker);
        recognizerFailed = failed;
        recognizerChannel = channel;
        return recognizer;
      },
      (error) => {
        // A recogniser that could not load its models within the allowance is ended; the next
        // scan starts a fresh one.
        const refused = memory.counters !== null && Atomics.load(memory.counters, SLOT.refused) > 0;
        // tesseract.js gives no handle on a worker whose start failed: its thread is told to end.
        channel.postMessage({ stop: true });
        channel.close();
        memory.counters = null;
        void starting.then((w) => w.terminate()).catch(() => undefined);
        throw refused ? new RangeError("OCR needs more than its memory allowance to start") : error;
      },
    )
    .finally(() => {
      recognizerStarting = null;
    });
  return recognizerStarting;
}

/**
 * Takes the recogniser away from later pages. Its memory still counts until its thread has
 * ended, and it is allowed nothing more, so a recognition under way fails at its next allocation.
 * Returns a function to call once the thread has ended.
 */
function forgetRecognizer() {
  const counters = memory.counters;
  recognizer = null;
  recognizerFailed = null;
  recognizerChannel?.close();
  recognizerChannel = null;
  memory.counters = null;
  if (!counters) return () => undefined;
  Atomics.store(counters, SLOT.allowance, 0);
  memory.retiring.add(counters);
  return () => {
    memory.retiring.delete(counters);
  };
}

/** Ends the recognizer (idle). */
async function stopRecognizer() {
  const worker = recognizer;
  const ended = forgetRecognizer();
  await worker?.terminate().catch(() => undefined);
  ended();
}

/**
 * Takes the recognizer away from later pages, for a page cut off by the budget, and ends it once
 * that page's work has settled: tesseract.js fails a job sent to a worker it has ended with an
 * error nothing can catch, so it is never ended under a running job. The next scan starts a new
 * one.
 *
 * @param {Promise<unknown> | null} reading
 */
function retireRecognizer(reading) {
  const worker = recognizer;
  const ended = forgetRecognizer();
  if (!worker) return;
  void Promise.resolve(reading)
    .catch(() => undefined)
    .then(() => worker.terminate())
    .catch(() => undefined)
    .finally(ended);
}

/**
 * The bytes OCR holds in this thread and its recogniser: the recogniser's WebAssembly and
 * JavaScript memory, and the canvas of a page being rendered.
 *
 * @example
 * const held = ocrMemoryBytes(); // 0 when no recogniser runs
 */
export function ocrMemoryBytes() {
  return recognizerBytes(memory.counters) + retiringBytes() + memory.rendering;
}

/** @param {Int32Array | null} counters */
function recognizerBytes(counters) {
  return counters ? (Atomics.load(counters, SLOT.wasm) + Atomics.load(counters, SLOT.js)) * KIB : 0;
}

/** What retired recognisers still hold until their threads have ended. */
function retiringBytes() {
  let sum = 0;
  for (const counters of memory.retiring) sum += recognizerBytes(counters);
  return sum;
}

/**
 * Keeps OCR within what the parse's memory budget has left (decision pdf-guard-ocr, "Memory"),
 * called by the PDF worker's watchdog with the budget less this thread's own ArrayBuffers and
 * heap. The recogniser is allowed what is left after the canvas; when OCR already holds more, the
 * render under way is cancelled and the recogniser is retired (its memory is given back when its
 * thread ends; a recognition under way fails at its next allocation and is ended once it settles),
 * and the page is left unread. Returns the bytes OCR holds.
 *
 * @param {number} availableBytes
 *
 * @example
 * holdOcrWithin(256 * 1048576 - ownBytes);
 */
export function holdOcrWithin(availableBytes) {
  const held = ocrMemoryBytes();
  const counters = memory.counters;
  if (counters) {
    const allowance = availableBytes - memory.rendering - retiringBytes();
    Atomics.store(counters, SLOT.allowance, allowanceKib(allowance));
  }
  if (held > availableBytes) {
    memory.exceeded = true;
    memory.render?.cancel();
    if (recognizer) retireRecognizer(memory.reading);
  }
  return held;
}

/** @param {number} bytes */
function allowanceKib(bytes) {
  return Math.max(0, Math.min(MAX_ALLOWANCE_KIB, Math.floor(bytes / KIB)));
}

/** This thread's own memory as the PDF worker's watchdog counts it. */
function ownBytes() {
  const usage = process.memoryUsage();
  return usage.arrayBuffers + usage.heapUsed;
}

/**
 * Reads the pages given by OCR, in order, until the time budget is spent: each page is rendered at
 * 200 dpi (at most 12 megapixels) and recognised; a page not finished within the budget is left
 * unread, and so are the pages after it. The same holds for the memory budget: a page whose render
 * or recognition would take OCR past `maxMemoryBytes` (with this thread's own memory) is left
 * unread, and so are the pages after it (decision pdf-guard-ocr, "Memory").
 *
 * @param {{ getPage(n: number): Promise<any> }} pdf an open pdf.js document
 * @param {number[]} pageNumbers 1-based
 * @param {{ budgetMs: number, maxMemoryBytes?: number }} options
 * @returns {Promise<{ texts: Map<number, string>, incomplete: boolean, unavailable: string | null }>}
 *
 * @example
 * const { texts } = await ocrPages(pdf, [1, 2], { budgetMs: 8_000, maxMemoryBytes: 256 * 1048576 });
 */
export async function ocrPages(pdf, pageNumbers, options) {
  /** @type {Map<number, string>} */
  const texts = new Map();
  const tools = await loadOcrTools();
  if (!tools.ok) return { texts, incomplete: pageNumbers.length > 0, unavailable: tools.reason };
  if (idleTimer !== null) clearTimeout(idleTimer);
  const maxMemoryBytes = options.maxMemoryBytes ?? Number.POSITIVE_INFINITY;
  try {
    return await readWithin(tools, pdf, pageNumbers, Date.now() + options.budgetMs, maxMemoryBytes, texts);
  } finally {
    idleTimer = setTimeout(() => void stopRecognizer(), IDLE_STOP_MS);
    idleTimer.unref?.();
  }
}

/**
 * @param {OcrTools} tools
 * @param {{ getPage(n: number): Promise<any> }} pdf
 * @param {number[]} pageNumbers
 * @param {number} deadline
 * @param {number} maxMemoryBytes
 * @param {Map<number, string>} texts
 * @returns {Promise<{ texts: Map<number, string>, incomplete: boolean, unavailable: string | null }>}
 */
async function readWithin(tools, pdf, pageNumbers, deadline, maxMemoryBytes, texts) {
  for (const n of pageNumbers) {
    const left = deadline - Date.now();
    // A page takes a second or more, and its rendering holds this thread: one is not begun when
    // less time is left, so the budget is not overrun by a render that cannot be interrupted.
    if (left < MIN_PAGE_MS) return { texts, incomplete: true, unavailable: null };
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const outOfTime = new Promise((resolve) => {
      timer = setTimeout(() => resolve(OUT_OF_TIME), left);
    });
    memory.exceeded = false;
    const reading = readPage(tools, pdf, n, maxMemoryBytes);
    // A page cut off by the budget may still fail once its recogniser is stopped: never unhandled.
    reading.catch(() => undefined);
    try {
      const text = await Promise.race([reading, outOfTime]).catch((error) => {
        // A recognition that failed for want of memory leaves the page unread; any other failure
        // is OCR failing, as before.
        if (memory.exceeded || /memory allowance/.test(String(error?.message ?? error))) return OUT_OF_MEMORY;
        throw error;
      });
      if (text === OUT_OF_TIME || text === OUT_OF_MEMORY) {
        retireRecognizer(reading);
        return { texts, incomplete: true, unavailable: null };
      }
      // null: no image on the page, nothing was recognised and the page keeps its own text.
      if (typeof text === "string") texts.set(n, text);
    } catch (error) {
      retireRecognizer(reading);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
  return { texts, incomplete: false, unavailable: null };
}

/**
 * Renders one page and reads it, within the memory budget: the render is begun only when the
 * budget has room for it (the recogniser kept from an earlier page is ended first when that makes
 * the room), and the recogniser is allowed what is left after this thread's own memory.
 *
 * @param {OcrTools} tools
 * @param {{ getPage(n: number): Promise<any> }} pdf
 * @param {number} n
 * @param {number} maxMemoryBytes
 * @returns {Promise<string | null | typeof OUT_OF_MEMORY>}
 */
async function readPage(tools, pdf, n, maxMemoryBytes) {
  const page = await pdf.getPage(n);
  // A page without any image (an empty last page, a page of lines and boxes) has nothing to read:
  // it is not rendered, so a text PDF's blank page costs no OCR.
  if (!(await drawsImage(page))) {
    page.cleanup();
    return null;
  }
  const base = page.getViewport({ scale: 1 });
  let scale = RENDER_DPI / 72;
  const pixels = base.width * base.height * scale * scale;
  if (pixels > MAX_PIXELS) scale *= Math.sqrt(MAX_PIXELS / pixels);
  const viewport = page.getViewport({ scale });
  const width = Math.ceil(viewport.width);
  const height = Math.ceil(viewport.height);
  const renderBytes = width * height * RENDER_BYTES_PER_PIXEL;
  if (ocrMemoryBytes() + ownBytes() + renderBytes > maxMemoryBytes && recognizer !== null) {
    // The recogniser's memory only ever grows: ending it is the one way to give it back.
    await stopRecognizer();
  }
  if (ownBytes() + renderBytes > maxMemoryBytes) {
    page.cleanup();
    return OUT_OF_MEMORY;
  }
  const factory = new tools.CanvasFactory();
  const drawing = factory.create(width, height);
  memory.rendering = width * height * 4;
  let png;
  try {
    // A white page first: a scan's image may leave parts transparent, which read as black.
    drawing.context.fillStyle = "#ffffff";
    drawing.context.fillRect(0, 0, drawing.canvas.width, drawing.canvas.height);
    const task = page.render({ canvas: drawing.canvas, canvasContext: drawing.context, viewport });
    memory.render = task;
    await task.promise;
    png = grayImage(drawing.context, width, height);
  } catch (error) {
    // The watchdog cancelled the render: the page did not fit in the budget.
    if (memory.exceeded) return OUT_OF_MEMORY;
    throw error;
  } finally {
    memory.render = null;
    memory.rendering = 0;
    factory.destroy(drawing);
    page.cleanup();
  }
  const worker = await startRecognizer(tools, maxMemoryBytes - ownBytes() - retiringBytes());
  const failed = recognizerFailed;
  const counters = memory.counters;
  const refusedBefore = counters ? Atomics.load(counters, SLOT.refused) : 0;
  const refused = () => counters !== null && Atomics.load(counters, SLOT.refused) > refusedBefore;
  const recognition = worker.recognize(png, {}, { text: false, blocks: true });
  memory.reading = recognition;
  try {
    const result = await (failed ? Promise.race([recognition, failed]) : recognition);
    // emscripten catches a refused growth and fails the allocation; leptonica then gives up on
    // the image and tesseract.js answers with no text at all. Such a page is unread, not empty.
    if (refused()) return OUT_OF_MEMORY;
    return linesFromWords(/** @type {any} */ (result).data.blocks ?? []);
  } catch (error) {
    // Or the allocation that failed aborts the job: its error names whatever went without memory.
    if (refused()) return OUT_OF_MEMORY;
    throw error;
  } finally {
    memory.reading = null;
  }
}

// Rows of the canvas read at a time when the page is turned to gray: the RGBA copy of a strip is
// all that is held besides the gray image (4 bytes a pixel of 256 rows, 2 MB for an A4 page).
const STRIP_ROWS = 256;

/**
 * The rendered page as an 8-bit grayscale PGM image (Netpbm P5), which leptonica reads as is:
 * tesseract turns a colour image to gray anyway, and a 32-bit image would take four times the
 * recogniser's memory (decision pdf-guard-ocr, "Memory"). The weights are leptonica's own for that
 * conversion (L_RED_WEIGHT 0.3, L_GREEN_WEIGHT 0.5, L_BLUE_WEIGHT 0.2), so the recogniser sees the
 * gray it would have made. By hand because the canvas encodes colour only; PGM is a header and
 * the bytes.
 *
 * @param {{ getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } }} context
 * @param {number} width
 * @param {number} height
 */
function grayImage(context, width, height) {
  const header = Buffer.from(`P5\n${width} ${height}\n255\n`, "ascii");
  const image = Buffer.allocUnsafe(header.length + width * height);
  header.copy(image, 0);
  let out = header.length;
  for (let top = 0; top < height; top += STRIP_ROWS) {
    const rows = Math.min(STRIP_ROWS, height - top);
    const rgba = context.getImageData(0, top, width, rows).data;
    for (let i = 0; i < rgba.length; i += 4) {
      image[out++] = (0.3 * (rgba[i] ?? 0) + 0.5 * (rgba[i + 1] ?? 0) + 0.2 * (rgba[i + 2] ?? 0) + 0.5) | 0;
    }
  }
  return image;
}

/**
 * Whether the page paints an image (pdf.js operator list): a scan is one or more images.
 *
 * @param {{ getOperatorList(): Promise<{ fnArray: number[] }> }} page
 */
async function drawsImage(page) {
  const { getResolvedPDFJS } = await import("unpdf");
  const { OPS } = await getResolvedPDFJS();
  const images = new Set([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintImageMaskXObject,
    OPS.paintImageXObjectRepeat,
    OPS.paintImageMaskXObjectGroup,
    OPS.paintInlineImageXObjectGroup,
    OPS.paintImageMaskXObjectRepeat,
  ]);
  const list = await page.getOperatorList();
  return list.fnArray.some((op) => images.has(op));
}

/**
 * @typedef {{ x0: number, y0: number, x1: number, y1: number }} Box
 * @typedef {{ text: string, bbox: Box }} OcrWord
 * @typedef {{ words: OcrWord[], bbox: Box }} OcrLine
 */

/**
 * Rebuilds the page's lines from the boxes of the recognised words, as parse-pdf.mjs does from the
 * positions of a text layer: tesseract reads a page in blocks, so a label in the left column and
 * its amount in the right one come out in different blocks, lines apart. Lines whose middles lie
 * within half a line's height of each other are one line, read left to right; a gap wider than
 * the line's height becomes a tab, which the amount reader takes for a cell boundary.
 *
 * @param {Array<{ paragraphs: Array<{ lines: OcrLine[] }> }>} blocks
 */
export function linesFromWords(blocks) {
  /** @type {OcrLine[]} */
  const found = [];
  for (const block of blocks) {
    for (const paragraph of block.paragraphs ?? []) {
      for (const line of paragraph.lines ?? []) {
        const words = (line.words ?? []).filter((w) => w.text.trim() !== "");
        if (words.length > 0) found.push({ words, bbox: line.bbox });
      }
    }
  }
  const middle = (/** @type {Box} */ b) => (b.y0 + b.y1) / 2;
  const height = (/** @type {Box} */ b) => Math.max(1, b.y1 - b.y0);
  found.sort((a, b) => middle(a.bbox) - middle(b.bbox) || a.bbox.x0 - b.bbox.x0);
  /** @type {Array<{ words: OcrWord[], mid: number, height: number }>} */
  const rows = [];
  for (const line of found) {
    const row = rows[rows.length - 1];
    if (row && Math.abs(row.mid - middle(line.bbox)) <= 0.5 * Math.min(row.height, height(line.bbox))) {
      row.words.push(...line.words);
    } else {
      rows.push({ words: [...line.words], mid: middle(line.bbox), height: height(line.bbox) });
    }
  }
  return rows
    .map((row) => {
      row.words.sort((a, b) => a.bbox.x0 - b.bbox.x0);
      let out = "";
      let end = null;
      for (const word of row.words) {
        if (end !== null) out += word.bbox.x0 - end > row.height ? "\t" : " ";
        out += word.text.trim();
        end = Math.max(end ?? word.bbox.x1, word.bbox.x1);
      }
      return out;
    })
    .filter((line) => line.length > 0)
    .join("\n");
}
