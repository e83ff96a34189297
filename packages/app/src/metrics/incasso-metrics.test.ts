import type { DocumentChecker } from "@incasso/pdf-guard";
import { describe, expect, it } from "vitest";
import { createIncassoMetrics } from "./incasso-metrics.js";

const sample = (text: string, name: string) =>
  text
    .split("\n")
    .filter((l) => l.startsWith(name))
    .sort();

describe("createIncassoMetrics", () => {
  it("counts and times document checks by checker and outcome", async () => {
    const metrics = createIncassoMetrics({ defaultMetrics: false });
    let warn = false;
    const checker: DocumentChecker = {
      name: "stub",
      check: async () => {
        if (warn) return [{ code: "amount_mismatch", message: "x", invoice_number: null }] as never;
        return [];
      },
    };
    const counted = metrics.instrumentChecker(checker);
    await counted.check({} as never, {} as never);
    warn = true;
    await counted.check({} as never, {} as never);
    const failing = metrics.instrumentChecker({
      name: "broken",
      check: () => Promise.reject(new Error("x")),
    });
    await expect(failing.check({} as never, {} as never)).rejects.toThrow("x");
    const text = await metrics.text();
    expect(sample(text, "incasso_document_checks_total")).toEqual([
      'incasso_document_checks_total{checker="broken",outcome="error"} 1',
      'incasso_document_checks_total{checker="stub",outcome="ok"} 1',
      'incasso_document_checks_total{checker="stub",outcome="warnings"} 1',
    ]);
    expect(sample(text, "incasso_document_check_duration_seconds_count")).toEqual([
      'incasso_document_check_duration_seconds_count{checker="broken"} 1',
      'incasso_document_check_duration_seconds_count{checker="stub"} 2',
    ]);
  });

  it("reads the outbox at each scrape and counts letter jobs by outcome", async () => {
    const metrics = createIncassoMetrics({ defaultMetrics: false });
    const now = new Date("2026-01-01T00:01:00Z");
    let due = 3;
    metrics.watchOutbox(
      {
        dueCount: async () => due,
        oldestDueAt: async () => (due ? new Date("2026-01-01T00:00:30Z") : undefined),
      },
      () => now,
    );
    metrics.onLetterJob({ outcome: "made" } as never);
    metrics.onLetterJob({ outcome: "retry" } as never);
    expect(sample(await metrics.text(), "incasso_outbox")).toEqual([
      "incasso_outbox_due_events 3",
      "incasso_outbox_oldest_due_age_seconds 30",
    ]);
    due = 0;
    const text = await metrics.text();
    expect(sample(text, "incasso_outbox")).toEqual([
      "incasso_outbox_due_events 0",
      "incasso_outbox_oldest_due_age_seconds 0",
    ]);
    expect(sample(text, "incasso_letter_job_attempts_total")).toEqual([
      'incasso_letter_job_attempts_total{outcome="made"} 1',
      'incasso_letter_job_attempts_total{outcome="retry"} 1',
    ]);
  });
});
