import { describe, expect, it } from "vitest";
import { type SnakeView, snakeView } from "./snake-view.js";

describe("snakeView", () => {
  it("renames the fields in the order given and writes Dates as ISO strings, null as null", () => {
    const record = {
      id: "act_1",
      caseNumber: "2026-000001",
      amountCents: 5000,
      createdAt: new Date("2026-11-21T10:00:00Z"),
      resolvedAt: null as Date | null,
      secret: "not shown",
    };
    const view: SnakeView<typeof record, "id" | "caseNumber" | "amountCents" | "createdAt" | "resolvedAt"> =
      snakeView(record, ["caseNumber", "id", "amountCents", "createdAt", "resolvedAt"]);
    expect(JSON.stringify(view)).toBe(
      '{"case_number":"2026-000001","id":"act_1","amount_cents":5000,"created_at":"2026-11-21T10:00:00.000Z","resolved_at":null}',
    );
  });

  it("leaves nested objects and arrays as they are", () => {
    const address = { postalCode: "1234 AB" };
    expect(snakeView({ homeAddress: address, tags: ["a"] }, ["homeAddress", "tags"])).toEqual({
      home_address: { postalCode: "1234 AB" },
      tags: ["a"],
    });
  });
});
