import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { checkAttachments, decodeAttachments } from "./check-attachments.js";
import { isPdfGuardError } from "./errors.js";
import { inspectPdf } from "./inspect-pdf.js";
import { invoiceLines, makeTextPdf, toBase64 } from "./internal/testing/fixtures.js";
import { closePdfEngine, createPdfEngine, getPdfEngine, resolvePdfEngineOptions } from "./node.js";

const pdf = await makeTextPdf({ pages: [invoiceLines({ number: "F-7", total: "€ 121,00" })] });
const order = [
  { filename: "a.pdf", content_base64: toBase64(pdf), document_type: "invoice" as const },
  { filename: "b.pdf", content_base64: toBase64(pdf), document_type: "other" as const },
];

describe("PDF engine", () => {
  it("accepts every valid PDF of more concurrent orders than it has workers, on at most its workers", async () => {
    const engine = createPdfEngine({ workers: 2 });
    try {
      const results = await Promise.all(Array.from({ length: 6 }, () => checkAttachments(order, { engine })));
      expect(results.map((r) => [r.ok, r.problem_code])).toEqual(Array(6).fill([true, null]));
      expect(results.flatMap((r) => r.attachments.map((a) => a.status))).toEqual(Array(12).fill("accepted"));
      expect(engine.stats()).toMatchObject({ workers: 2, started: 2, peakWorkers: 2, busy: 0, queued: 0 });
    } finally {
      await engine.close();
    }
  });

  it("turns a full queue into a 503 pdf_engine_busy error, never a refusal of the file", async () => {
    // A cold engine needs far more than 1 ms to start its worker, so the wait is always exceeded.
    const engine = createPdfEngine({ workers: 1, maxQueueWaitMs: 1 });
    try {
      const error = await checkAttachments(order, { engine }).catch((e: unknown) => e);
      expect(isPdfGuardError(error) && [error.status, error.code, error.errors]).toEqual([
        503,
        "pdf_engine_busy",
        [],
      ]);
      const thrown = await decodeAttachments(order, { engine }).catch((e: unknown) => e);
      expect(isPdfGuardError(thrown) && thrown.code).toBe("pdf_engine_busy");
    } finally {
      await engine.close();
    }
  });

  it("fails checks on a closed engine with 503 pdf_engine_closed", async () => {
    const engine = createPdfEngine({ workers: 1 });
    await engine.close();
    const error = await inspectPdf(pdf, { engine }).catch((e: unknown) => e);
    expect(isPdfGuardError(error) && [error.status, error.code]).toEqual([503, "pdf_engine_closed"]);
  });

  it("shares one process-wide engine whose workers start again after closePdfEngine", async () => {
    // An earlier test file in the same worker may have used the process-wide engine: start from
    // none running.
    await closePdfEngine();
    const engine = getPdfEngine();
    expect(getPdfEngine()).toBe(engine);
    expect((await inspectPdf(pdf, { engine })).ok).toBe(true);
    expect(engine.stats().started).toBe(1);
    await closePdfEngine();
    // The same object stays usable, so a host that handed it to createOrderEngine at start-up
    // keeps working after a shutdown or reconfiguration: new workers start on the next parse.
    expect(engine.stats()).toMatchObject({ workers: 0, started: 0 });
    expect((await inspectPdf(pdf, { engine })).ok).toBe(true);
    expect(engine.stats().started).toBe(1);
    await engine.close();
    expect(engine.stats().started).toBe(0);
  });

  it("parses on the calling thread without an engine", async () => {
    const engine = createPdfEngine({ workers: 1 });
    try {
      expect((await checkAttachments(order)).ok).toBe(true);
      expect((await inspectPdf(pdf)).ok).toBe(true);
      expect(engine.stats().started).toBe(0);
    } finally {
      await engine.close();
    }
  });

  it("sizes itself from the machine and rejects nonsense options", () => {
    const defaults = resolvePdfEngineOptions();
    expect(defaults.workers).toBeGreaterThanOrEqual(1);
    expect(defaults).toMatchObject({ heapLimitMb: 256, maxQueueWaitMs: 30_000, startupTimeoutMs: 30_000 });
    expect(() => createPdfEngine({ workers: 0 })).toThrow(
      "PDF engine option workers must be a positive integer, got 0",
    );
  });

  it("lets the process exit after a check without closing the engine (idle workers are unref'd)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "pdf-guard-exit-"));
    try {
      const script = join(dir, "check.mts");
      await writeFile(
        script,
        [
          `import { checkAttachments } from ${JSON.stringify(new URL("./check-attachments.ts", import.meta.url).href)};`,
          `import { getPdfEngine } from ${JSON.stringify(new URL("./node.ts", import.meta.url).href)};`,
          `const r = await checkAttachments([{ filename: "a.pdf", content_base64: ${JSON.stringify(toBase64(pdf))} }], { engine: getPdfEngine() });`,
          `if (getPdfEngine().stats().started !== 1) throw new Error("not parsed in a worker");`,
          `console.log(r.ok ? "accepted" : "refused");`,
        ].join("\n"),
      );
      const tsx = createRequire(import.meta.url).resolve("tsx");
      const { stdout } = await promisify(execFile)(process.execPath, ["--import", tsx, script], {
        timeout: 60_000,
      });
      expect(stdout.trim()).toBe("accepted");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
