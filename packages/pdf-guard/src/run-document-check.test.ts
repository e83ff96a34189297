import { describe, expect, it } from "vitest";
import type { DocumentChecker, DocumentCheckInput } from "./document-check-types.js";
import { runDocumentCheck } from "./run-document-check.js";

const input: DocumentCheckInput = {
  debtors: [],
  invoices: [{ invoice_number: "F-1", amount_cents: 100 }],
  attachments: [{ index: 0, filename: "a.pdf", document_type: "invoice", text: "x", page_count: 1 }],
};

function collect() {
  const logged: Array<[string, Record<string, unknown> | undefined]> = [];
  return { logged, logger: { warn: (m: string, d?: Record<string, unknown>) => logged.push([m, d]) } };
}

const fixed = (result: unknown): DocumentChecker => ({ name: "fixed", check: async () => result as never });

describe("runDocumentCheck", () => {
  it("returns nothing without attachments and does not call the checker", async () => {
    let called = false;
    const checker: DocumentChecker = {
      name: "spy",
      async check() {
        called = true;
        return [];
      },
    };
    expect(await runDocumentCheck(checker, { ...input, attachments: [] })).toEqual([]);
    expect(called).toBe(false);
  });

  it("turns a throwing checker into no warnings and logs why", async () => {
    const { logged, logger } = collect();
    const checker: DocumentChecker = {
      name: "broken",
      async check() {
        throw new Error("boom");
      },
    };
    expect(await runDocumentCheck(checker, input, { logger })).toEqual([]);
    expect(logged).toEqual([
      ["document check failed; no warnings from it", { checker: "broken", error: "boom" }],
    ]);
  });

  it("aborts the checker's signal when the budget runs out", async () => {
    const { logged, logger } = collect();
    let signal: AbortSignal | undefined;
    const checker: DocumentChecker = {
      name: "slow",
      check: (_input, context) => {
        signal = context.signal;
        return new Promise(() => {});
      },
    };
    expect(await runDocumentCheck(checker, input, { logger, timeoutMs: 20 })).toEqual([]);
    expect(signal?.aborted).toBe(true);
    expect(logged).toEqual([
      ["document check timed out; no warnings from it", { checker: "slow", timeoutMs: 20 }],
    ]);
  });

  it("drops malformed warnings, nulls unknown invoice numbers and removes duplicates", async () => {
    const { logged, logger } = collect();
    const good = { code: "ai_invoice_mismatch", message: "Verschil.", invoice_number: "F-1" };
    const warnings = await runDocumentCheck(
      fixed([
        good,
        good,
        { code: "test_mode", message: "x", invoice_number: null },
        { code: "wik_letter_detected", message: "Brief.", invoice_number: "F-404" },
      ]),
      input,
      { logger },
    );
    expect(warnings).toEqual([
      good,
      { code: "wik_letter_detected", message: "Brief.", invoice_number: null },
    ]);
    expect(logged.map(([m]) => m)).toEqual(["document check returned a malformed warning; dropped"]);
  });

  it("treats a result that is not a list as no warnings", async () => {
    const { logged, logger } = collect();
    expect(await runDocumentCheck(fixed({ warnings: [] }), input, { logger })).toEqual([]);
    expect(logged).toEqual([["document check returned no list; no warnings from it", { checker: "fixed" }]]);
  });
});
