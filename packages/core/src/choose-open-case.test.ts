import { describe, expect, it } from "vitest";
import { chooseOpenCase } from "./choose-open-case.js";

// The merge rule of decision orders-engine-multiple-open-cases.
const open = (caseNumber: string, openedAt: string, openedByOrderId: string) => ({
  caseNumber,
  openedAt: new Date(openedAt),
  openedByOrderId,
});

describe("chooseOpenCase", () => {
  it("opens a case when there is none", () => {
    expect(chooseOpenCase([], "ord_c")).toEqual({ join: undefined, own: undefined, others: [] });
  });

  it("joins the oldest by opening time, then by case number, whatever the lookup's order", () => {
    const cases = [
      open("2026-000009", "2026-11-02T09:00:00Z", "ord_x"),
      open("2026-000004", "2026-11-01T09:00:00Z", "ord_b"),
      open("2026-000002", "2026-11-01T09:00:00Z", "ord_a"),
    ];
    const choice = chooseOpenCase(cases, "ord_c");
    expect(choice.join?.caseNumber).toBe("2026-000002");
    expect(choice.others).toEqual(["2026-000004", "2026-000009"]);
  });

  it("recognises the case the order opened itself before (a retry) and merges into nothing", () => {
    const cases = [
      open("2026-000001", "2026-11-01T09:00:00Z", "ord_a"),
      open("2026-000005", "2026-11-03T09:00:00Z", "ord_c"),
    ];
    expect(chooseOpenCase(cases, "ord_c")).toEqual({ join: undefined, own: cases[1], others: [] });
  });
});
