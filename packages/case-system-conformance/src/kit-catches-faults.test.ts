import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

// The kit's tests can fail: it runs against the built-in case system with one rule of the port
// broken per suite (internal/testing/faulty-targets.kit.ts, in a vitest process of its own), and
// exactly the tests of that rule fail.
const root = fileURLToPath(new URL("../../../", import.meta.url));
const config = fileURLToPath(new URL("./internal/testing/vitest.kit.config.ts", import.meta.url));

interface JsonReport {
  testResults: { assertionResults: { ancestorTitles: string[]; title: string; status: string }[] }[];
}

it("fails exactly the tests of the rule a case system breaks", { timeout: 240_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "incasso-kit-"));
  try {
    const output = join(dir, "report.json");
    await new Promise<void>((resolve) => {
      execFile(
        process.execPath,
        [
          join(root, "node_modules/vitest/vitest.mjs"),
          "run",
          "--config",
          config,
          "packages/case-system-conformance/src/internal/testing/faulty-targets.kit.ts",
          "--reporter=json",
          `--outputFile=${output}`,
        ],
        // INCASSO_TEST_TIMINGS off: the workspace config would send this run's report there instead.
        {
          cwd: root,
          env: { ...process.env, TEST_DATABASE_URL: "", INCASSO_TEST_TIMINGS: "" },
          maxBuffer: 64 * 1024 * 1024,
        },
        // The run fails by design; the report says how.
        () => resolve(),
      );
    });
    const report = JSON.parse(readFileSync(output, "utf8")) as JsonReport;
    const failed: Record<string, string[]> = {};
    let passed = 0;
    for (const result of report.testResults.flatMap((r) => r.assertionResults)) {
      const suite = (result.ancestorTitles[0] ?? "").replace("case system conformance: ", "");
      if (result.status === "passed") passed++;
      else failed[suite] = [...(failed[suite] ?? []), result.title];
    }
    for (const titles of Object.values(failed)) titles.sort();
    expect(failed).toEqual({
      "repeat-is-new-order": [
        "a lost answer: 502, and the retry with the same Idempotency-Key answers the case placed the first time",
        "placeOnCase repeated with the same order id answers the same case and opens no second",
      ],
      "placement-never-fails": ["a failing placement answers 502 upstream_error and stores nothing"],
      "items-unreported": [
        "a debtor address the case system cannot record: 201 with debtor_address_failed",
        "an invoice the case system cannot attach: 201 with claim_attach_failed",
      ],
      "no-task-outcome": ["a task's outcome reaches the order's actions and the outbox as case.updated"],
      "no-balance": ["status, balance and actions read back through GET /orders/{id}"],
      "no-withdrawal": [
        "the order row fails after the placement: 503, and the client's retry without an Idempotency-Key is the one order, on a new case",
        "withdrawPlacement removes the order from its case, and the case it opened alone; a repeat and an order never placed change nothing",
      ],
    });
    // Every other test of the six suites passed.
    expect(passed).toBe(6 * 14 - 9);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
