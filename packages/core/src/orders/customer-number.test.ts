import { describe, expect, it } from "vitest";
import { normaliseCustomerNumber } from "./customer-number.js";

describe("normaliseCustomerNumber", () => {
  it.each([
    ["KL-2026/001", "KL-2026/001"],
    ["a.b_c/d-e f", "a.b_c/d-e f"],
    ["Café 12", "Café 12"],
    ["Cafe\u0301 12", "Caf\u00e9 12"],
    ["Ölçü-3", "Ölçü-3"],
    ["١٢٣", "١٢٣"],
    [" K 1 ", " K 1 "],
  ])("accepts %j as %j", (input, out) => {
    expect(normaliseCustomerNumber(input)).toBe(out);
  });

  it.each([
    "",
    "   ",
    "K#1",
    "K@1",
    "K+1",
    "K,1",
    "K;1",
    "K\\1",
    "K\t1",
    "K\n1",
    "K\u00a01",
    "x²",
    "Ⅻ",
    "😀",
  ])("refuses %j", (input) => {
    expect(normaliseCustomerNumber(input)).toBeNull();
  });
});
