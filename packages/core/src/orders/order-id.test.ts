import { describe, expect, it } from "vitest";
import { isOrderId, newOrderId, ORDER_ID_PATTERN, OrderIdSchema } from "./order-id.js";

describe("order ids", () => {
  it("newOrderId makes ord_ plus 16 lowercase hex characters", () => {
    for (let i = 0; i < 200; i++) {
      const id = newOrderId();
      expect(id).toMatch(/^ord_[0-9a-f]{16}$/);
      expect(isOrderId(id)).toBe(true);
    }
  });

  it("newOrderId does not repeat within 10,000 ids", () => {
    const ids = new Set(Array.from({ length: 10_000 }, newOrderId));
    expect(ids.size).toBe(10_000);
  });

  it.each([
    ["ord_0123456789abcdef", true],
    ["ord_0123456789ABCDEF", false],
    ["ord_0123456789abcde", false],
    ["ord_0123456789abcdef0", false],
    ["ORD_0123456789abcdef", false],
    ["evt_0123456789abcdef", false],
    ["ord_0123456789abcdeg", false],
    [" ord_0123456789abcdef", false],
    ["ord_0123456789abcdef\n", false],
    [42, false],
    [null, false],
  ])("isOrderId(%j) is %s", (value, expected) => {
    expect(isOrderId(value)).toBe(expected);
  });

  it("the schema and the pattern agree", () => {
    expect(OrderIdSchema.safeParse("ord_0123456789abcdef").success).toBe(true);
    expect(OrderIdSchema.safeParse("ord_0123").success).toBe(false);
    expect(ORDER_ID_PATTERN.source).toBe("^ord_[0-9a-f]{16}$");
  });
});
