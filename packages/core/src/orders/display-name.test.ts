import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { debtorDisplayName, debtorsSummary } from "./display-name.js";
import { CTX, validBody } from "./internal/testing/fixtures.js";
import { validateCreateOrder } from "./validate-create-order.js";

describe("debtorDisplayName", () => {
  it.each([
    [{ type: "individual", first_name: "Jan", middle_name: "de", last_name: "Vries" }, "Jan de Vries"],
    [{ type: "individual", first_name: "Jan", middle_name: null, last_name: "Jansen" }, "Jan Jansen"],
    [{ type: "individual", middle_name: "van der", last_name: "Berg" }, "van der Berg"],
    [
      { type: "individual", first_name: "  Els ", middle_name: "", last_name: " Bakker  Smit " },
      "Els Bakker Smit",
    ],
    [{ type: "individual", last_name: "Vries", company_name: "Vries Bouw" }, "Vries"],
    [{ type: "business", company_name: "Test B.V." }, "Test B.V."],
    [{ type: "business", company_name: "Test B.V.", last_name: "Contact" }, "Test B.V."],
    [{ type: "business", company_name: " ", first_name: "Jan", last_name: "Vries" }, "Jan Vries"],
    [{ type: "individual", last_name: "", company_name: "Zaak" }, "Zaak"],
    [{ type: "business" }, ""],
  ] as const)("%j → %j", (debtor, name) => {
    expect(debtorDisplayName(debtor)).toBe(name);
  });

  const text = (max: number) => fc.string({ minLength: 0, maxLength: max });
  const validDebtor = fc.oneof(
    fc.record({
      type: fc.constant("business"),
      company_name: text(200),
      address: fc.constant({ street: "S", house_number: "1", postal_code: "9999 ZZ", city: "T" }),
    }),
    fc.record({
      type: fc.constant("individual"),
      first_name: fc.option(text(100)),
      middle_name: fc.option(text(50)),
      last_name: text(100),
      address: fc.constant({ street: "S", house_number: "1", postal_code: "9999 ZZ", city: "T" }),
    }),
  );

  it("is never empty for a debtor that validation accepted, and has no outer or double spaces (property)", () => {
    fc.assert(
      fc.property(validDebtor, (debtor) => {
        const r = validateCreateOrder({ ...validBody(), debtors: [debtor] }, CTX);
        fc.pre(r.ok);
        if (!r.ok) return;
        const name = debtorDisplayName(r.order.debtors[0] as NonNullable<(typeof r.order.debtors)[0]>);
        expect(name.length).toBeGreaterThan(0);
        expect(name).toBe(name.trim());
        expect(name).not.toMatch(/\s\s/);
      }),
      { numRuns: 300 },
    );
  });
});

describe("debtorsSummary", () => {
  it("joins the names with a comma and a space, in request order", () => {
    expect(
      debtorsSummary([
        { type: "individual", first_name: "Jan", middle_name: "de", last_name: "Vries" },
        { type: "business", company_name: "Test B.V." },
      ]),
    ).toBe("Jan de Vries, Test B.V.");
    expect(debtorsSummary([{ type: "business", company_name: "Solo B.V." }])).toBe("Solo B.V.");
  });
});
