import { describe, expect, it } from "vitest";
import {
  chooseOpenCase,
  compareOpenCases,
  inMergeScope,
  OPEN_CASE_ORDER,
  openCaseQuery,
} from "./merge-rule.js";

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

describe("the scope and ranking of the merge rule", () => {
  const debtors = (...numbers: (string | null)[]) => numbers.map((customer_number) => ({ customer_number }));

  it("asks for the order's customer numbers once each, and for nothing when it has none", () => {
    const creditor = { id: "cred_1", name: "Y" };
    expect(
      openCaseQuery({ organisationId: "org_1", creditor, debtors: debtors("K-2", null, "K-1", "K-2") }),
    ).toEqual({
      organisationId: "org_1",
      creditorId: "cred_1",
      customerNumbers: ["K-2", "K-1"],
    });
    expect(
      openCaseQuery({ organisationId: "org_1", creditor, debtors: debtors(null, null) }),
    ).toBeUndefined();
  });

  it("takes only open cases of the same organisation and creditor that share a customer number", () => {
    const query = { organisationId: "org_1", creditorId: null, customerNumbers: ["K-1"] };
    const candidate = {
      organisationId: "org_1",
      creditorId: null,
      open: true,
      customerNumbers: [null, "K-1"],
    };
    expect(inMergeScope(candidate, query)).toBe(true);
    expect(inMergeScope({ ...candidate, open: false }, query)).toBe(false);
    expect(inMergeScope({ ...candidate, organisationId: "org_2" }, query)).toBe(false);
    expect(inMergeScope({ ...candidate, creditorId: "cred_1" }, query)).toBe(false);
    expect(inMergeScope({ ...candidate, customerNumbers: [null, "K-2"] }, query)).toBe(false);
  });

  it("ranks by opening time, then by case number in code-point order", () => {
    expect(OPEN_CASE_ORDER).toEqual(["openedAt", "caseNumber"]);
    const at = "2026-11-01T09:00:00Z";
    expect(compareOpenCases(open("2026-1000000", at, "a"), open("2026-999999", at, "b"))).toBe(-1);
    expect(
      compareOpenCases(open("2026-000001", "2026-11-02T09:00:00Z", "a"), open("2026-000002", at, "b")),
    ).toBe(86_400_000);
    expect(compareOpenCases(open("2026-000001", at, "a"), open("2026-000001", at, "b"))).toBe(0);
  });
});
