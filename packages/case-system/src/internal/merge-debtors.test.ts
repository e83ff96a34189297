import { describe, expect, it } from "vitest";
import { type DebtorRow, mergeDebtors } from "./merge-debtors.js";

const address = (street: string) => ({
  street,
  house_number: "1",
  house_number_suffix: null,
  postal_code: "9999 ZZ",
  city: "Testdorp",
  country: "NL",
});
const row = (orderId: string, over: Partial<DebtorRow> = {}): DebtorRow => ({
  orderId,
  position: 0,
  type: "business",
  name: "Voorbeeld B.V.",
  customerNumber: "K-1",
  email: null,
  phone: null,
  address: address("Kade"),
  addressSetAt: new Date(`2026-11-2${orderId.slice(-1)}T09:00:00.000Z`),
  ...over,
});

describe("mergeDebtors", () => {
  it("lists a debtor named by three orders once, with the three orders", () => {
    expect(mergeDebtors([row("o1"), row("o2"), row("o3")])).toEqual([
      {
        orderId: "o1",
        position: 0,
        type: "business",
        name: "Voorbeeld B.V.",
        customerNumber: "K-1",
        email: null,
        phone: null,
        address: address("Kade"),
        orderIds: ["o1", "o2", "o3"],
        previousAddresses: [],
      },
    ]);
  });

  it("takes a changed address as the new one and keeps the earlier ones, oldest first", () => {
    const [debtor] = mergeDebtors([
      row("o1"),
      row("o2", { address: address("Dijk"), email: "nieuw@example.nl" }),
      row("o3", { address: null, addressSetAt: null }),
      row("o4", { address: address("Kade") }),
    ]);
    expect(debtor?.address).toEqual(address("Kade"));
    expect(debtor?.email).toBe("nieuw@example.nl");
    expect(debtor?.orderIds).toEqual(["o1", "o2", "o3", "o4"]);
    expect(debtor?.previousAddresses).toEqual([
      { address: address("Kade"), orderId: "o1", setAt: new Date("2026-11-21T09:00:00.000Z") },
      { address: address("Dijk"), orderId: "o2", setAt: new Date("2026-11-22T09:00:00.000Z") },
    ]);
  });

  it("keeps debtors apart that differ in customer number, name or type, and without a customer number in address", () => {
    const merged = mergeDebtors([
      row("o1"),
      row("o2", { customerNumber: "K-2" }),
      row("o3", { name: "Ander B.V." }),
      row("o4", { type: "individual" }),
      row("o5", { customerNumber: null }),
      row("o6", { customerNumber: null }),
      row("o7", { customerNumber: null, address: address("Dijk") }),
    ]);
    expect(merged.map((d) => [d.customerNumber, d.name, d.type, d.address?.street, d.orderIds])).toEqual([
      ["K-1", "Voorbeeld B.V.", "business", "Kade", ["o1"]],
      ["K-2", "Voorbeeld B.V.", "business", "Kade", ["o2"]],
      ["K-1", "Ander B.V.", "business", "Kade", ["o3"]],
      ["K-1", "Voorbeeld B.V.", "individual", "Kade", ["o4"]],
      [null, "Voorbeeld B.V.", "business", "Kade", ["o5", "o6"]],
      [null, "Voorbeeld B.V.", "business", "Dijk", ["o7"]],
    ]);
  });
});
