import { describe, expect, it } from "vitest";
import { isApiError } from "./api-error.js";
import { bodyBudgetExhausted, createBodyBudget, withinBudget } from "./body-budget.js";

describe("createBodyBudget", () => {
  it("gives shares until the budget is spent, weighs them, and takes them back once", () => {
    const budget = createBodyBudget(1000);
    const a = budget.open(1.75);
    expect(a.cover(400)).toBe(true);
    expect(a.bytes).toBe(700);
    const b = budget.open();
    expect(b.cover(301)).toBe(false);
    expect(b.bytes).toBe(0);
    expect(b.cover(300)).toBe(true);
    expect(budget.inUse).toBe(1000);
    a.release();
    a.release();
    expect(budget.inUse).toBe(300);
    // A share grows as a chunked body arrives, by what it does not hold yet.
    expect(b.cover(900)).toBe(true);
    expect(budget.inUse).toBe(900);
    b.release();
    expect(budget.inUse).toBe(0);
  });

  it("lets one request alone exceed the budget, so large bodies slow down and are never locked out", () => {
    const budget = createBodyBudget(10);
    const alone = budget.open();
    expect(alone.cover(50)).toBe(true);
    expect(budget.open().cover(1)).toBe(false);
  });

  it("refuses a budget that is not a positive integer, and answers 503 server_busy with Retry-After", () => {
    expect(() => createBodyBudget(0)).toThrow(RangeError);
    const error = bodyBudgetExhausted();
    expect(error.status).toBe(503);
    expect(error.code).toBe("server_busy");
    expect(error.headers).toEqual({ "Retry-After": "5" });
  });
});

describe("withinBudget", () => {
  const streamOf = (...sizes: number[]) =>
    new ReadableStream<Uint8Array>({
      pull(controller) {
        const size = sizes.shift();
        if (size === undefined) controller.close();
        else controller.enqueue(new Uint8Array(size));
      },
    });

  it("passes a chunked body the share covers, and fails with 503 server_busy past it", async () => {
    const budget = createBodyBudget(100);
    const share = budget.open();
    const read = await new Response(withinBudget(streamOf(40, 50), share)).arrayBuffer();
    expect(read.byteLength).toBe(90);
    expect(share.bytes).toBe(90);
    const other = budget.open();
    const failed = await new Response(withinBudget(streamOf(5, 20), other)).arrayBuffer().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isApiError(failed) ? [failed.status, failed.code] : failed).toEqual([503, "server_busy"]);
    // The refused share holds what it covered before the refusal, until released.
    expect(budget.inUse).toBe(95);
    other.release();
    share.release();
    expect(budget.inUse).toBe(0);
  });
});
