import { describe, expect, it } from "vitest";
import { customerNumberFilter, normaliseCustomerNumber } from "./customer-number.js";

describe("normaliseCustomerNumber", () => {
  it.each([
    ["KL-2026/001", "KL-2026/001"],
    ["a.b_c/d-e f", "a.b_c/d-e f"],
    ["Café 12", "Café 12"],
    ["Cafe\u0301 12", "Caf\u00e9 12"],
    ["Ölçü-3", "Ölçü-3"],
    ["١٢٣", "١٢٣"],
    // Leading and trailing spaces are not part of the number (decision orders-customer-number);
    // a space inside it is.
    [" K 1 ", "K 1"],
    ["  C-1", "C-1"],
    ["C-1   ", "C-1"],
    [" Cafe\u0301 ", "Caf\u00e9"],
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

describe("customerNumberFilter", () => {
  it.each([
    ["C-1", "C-1"],
    [" C-1 ", "C-1"],
    ["Cafe\u0301 12", "Caf\u00e9 12"],
    // Not a customer number: left as it is (in NFC), so it finds nothing.
    ["K#1", "K#1"],
    ["", ""],
  ])("filters %j as %j", (input, out) => {
    expect(customerNumberFilter(input)).toBe(out);
  });
});
