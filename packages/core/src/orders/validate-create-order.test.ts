import { describe, expect, it } from "vitest";
import { attachment, CTX, individual, validBody } from "./internal/testing/fixtures.js";
import {
  type CreateOrderValidation,
  type ValidateCreateOrderContext,
  validateCreateOrder,
} from "./validate-create-order.js";

type Body = ReturnType<typeof validBody>;

function run(body: unknown, ctx: ValidateCreateOrderContext = CTX): CreateOrderValidation {
  return validateCreateOrder(body, ctx);
}

/** [field, code] pairs of a refused body, in the order reported. */
function errorsOf(body: unknown, ctx?: ValidateCreateOrderContext): [string, string][] {
  const r = run(body, ctx);
  if (r.ok) return [];
  return r.errors.map((e) => [e.field, e.code]);
}

function withDebtor(patch: Record<string, unknown>): Body {
  const b = validBody();
  b.debtors[0] = { ...b.debtors[0], ...patch };
  return b;
}

function withAddress(patch: Record<string, unknown>): Body {
  const b = validBody();
  const d = b.debtors[0] as { address: Record<string, unknown> };
  d.address = { ...d.address, ...patch };
  return b;
}

function withInvoice(patch: Record<string, unknown>, drop: string[] = []): Body {
  const b = validBody();
  const inv: Record<string, unknown> = { ...b.invoices[0], ...patch };
  for (const k of drop) delete inv[k];
  b.invoices[0] = inv;
  return b;
}

describe("validateCreateOrder: a valid order", () => {
  it("returns the normalised order with defaults filled in and no warnings", () => {
    const r = run(validBody());
    expect(r).toEqual({
      ok: true,
      warnings: [],
      order: {
        type: "pre-incasso",
        reference: null,
        title: null,
        description: null,
        creditor: null,
        metadata: {},
        udf_fields: {},
        case_udf_fields: {},
        debtors: [
          {
            type: "business",
            company_name: "Test B.V.",
            first_name: null,
            middle_name: null,
            last_name: null,
            customer_number: "K-1001",
            email: null,
            phone: null,
            address: {
              street: "Teststraat",
              house_number: "10",
              house_number_suffix: null,
              postal_code: "9999 ZZ",
              city: "Testdorp",
              country: "NL",
            },
          },
        ],
        invoices: [
          {
            invoice_number: "F-2026-001",
            invoice_date: "2026-10-01",
            due_date: "2026-10-31",
            payment_term_days: 30,
            amount_cents: 125000,
            description: null,
          },
        ],
        attachments: [],
      },
    });
  });

  it("keeps every optional field as sent", () => {
    const b = {
      ...validBody(),
      type: "incasso",
      reference: "REF-1",
      title: "Overeenkomst van opdracht voor F-2026-001",
      description: "Levering 2026",
      creditor: { reference: "ACME" },
      metadata: { dossier: "2026-114" },
      debtors: [
        individual({ customer_number: "K/7", email: "jan@example.nl", phone: "+31 6 00000000" }),
        { ...individual(), first_name: null, middle_name: null, last_name: "Jansen" },
      ],
      invoices: [
        {
          invoice_number: "F1",
          invoice_date: "2026-11-21",
          due_date: "2026-12-05",
          amount_cents: 1,
          description: "x",
        },
      ],
      attachments: [attachment("wik_letter"), { filename: "b.pdf", content_base64: "JVBERi0=" }],
    };
    const r = run(b);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.order.reference).toBe("REF-1");
    expect(r.order.creditor).toEqual({ reference: "ACME" });
    expect(r.order.metadata).toEqual({ dossier: "2026-114" });
    expect(r.order.debtors[0]).toMatchObject({
      first_name: "Jan",
      middle_name: "de",
      last_name: "Vries",
      customer_number: "K/7",
      email: "jan@example.nl",
    });
    expect(r.order.debtors[1]).toMatchObject({ first_name: null, middle_name: null, last_name: "Jansen" });
    expect(r.order.invoices[0]).toEqual({
      invoice_number: "F1",
      invoice_date: "2026-11-21",
      due_date: "2026-12-05",
      payment_term_days: null,
      amount_cents: 1,
      description: "x",
    });
    expect(r.order.attachments).toEqual([
      { filename: "factuur.pdf", content_base64: "JVBERi0xLjcK", document_type: "wik_letter" },
      { filename: "b.pdf", content_base64: "JVBERi0=", document_type: null },
    ]);
  });

  it.each([[""], ["   "], ["\t\n"]])(
    "treats the blank title %j as absent (null), so one is generated",
    (title) => {
      const r = run({ ...validBody(), title });
      expect(r.ok).toBe(true);
      expect(r.ok && r.order.title).toBeNull();
    },
  );

  it("keeps a title with text exactly as sent, surrounding spaces included", () => {
    const r = run({ ...validBody(), title: " Overeenkomst van opdracht voor F-1 " });
    expect(r.ok && r.order.title).toBe(" Overeenkomst van opdracht voor F-1 ");
  });

  it("accepts creditor by id", () => {
    const r = run({ ...validBody(), creditor: { id: "cred_0123456789abcdef" } });
    expect(r.ok && r.order.creditor).toEqual({ id: "cred_0123456789abcdef" });
  });

  it("accepts null for every field the spec types as 'or null'", () => {
    const b = {
      ...validBody(),
      reference: null,
      title: null,
      description: null,
      creditor: null,
      debtors: [
        {
          ...individual(),
          first_name: null,
          middle_name: null,
          customer_number: null,
          email: null,
          phone: null,
          address: {
            street: "S",
            house_number: "1",
            house_number_suffix: null,
            postal_code: "9999 ZZ",
            city: "T",
          },
        },
      ],
      invoices: [
        {
          invoice_number: "F",
          invoice_date: "2026-01-01",
          due_date: null,
          payment_term_days: 0,
          amount_cents: 5,
          description: null,
        },
      ],
      attachments: [attachment(null)],
    };
    const r = run(b);
    expect(r.ok).toBe(true);
    expect(r.ok && r.order.invoices[0]?.due_date).toBe("2026-01-01");
  });
});

describe("validateCreateOrder: the body itself", () => {
  it.each([
    [null, "invalid_type"],
    [[], "invalid_type"],
    ["order", "invalid_type"],
    [42, "invalid_type"],
    [undefined, "required"],
  ])("refuses %j as body", (body, code) => {
    expect(run(body)).toEqual({
      ok: false,
      code: "validation_error",
      errors: [expect.objectContaining({ field: "body", code })],
    });
  });

  it("reports every missing required top-level field", () => {
    expect(errorsOf({})).toEqual([
      ["type", "required"],
      ["debtors", "required"],
      ["invoices", "required"],
    ]);
  });

  it("refuses an unknown type", () => {
    const r = run({ ...validBody(), type: "incasso-light" });
    expect(r).toEqual({
      ok: false,
      code: "validation_error",
      errors: [{ field: "type", code: "invalid_value", message: 'must be one of "pre-incasso", "incasso"' }],
    });
  });
});

describe("validateCreateOrder: lengths of the Limits table, both sides of each limit", () => {
  const top: [string, number][] = [
    ["reference", 100],
    ["title", 200],
    ["description", 2000],
  ];
  it.each(top)("%s: %i characters pass, one more is too_long", (field, max) => {
    expect(run({ ...validBody(), [field]: "x".repeat(max) }).ok).toBe(true);
    expect(errorsOf({ ...validBody(), [field]: "x".repeat(max + 1) })).toEqual([[field, "too_long"]]);
  });

  const debtor: [string, number, "business" | "individual"][] = [
    ["company_name", 200, "business"],
    ["first_name", 100, "individual"],
    ["middle_name", 50, "individual"],
    ["last_name", 100, "individual"],
    ["customer_number", 50, "business"],
    ["phone", 30, "business"],
  ];
  it.each(debtor)("debtors[0].%s: %i characters pass, one more is too_long", (field, max, type) => {
    const base = type === "individual" ? individual() : validBody().debtors[0];
    const make = (n: number) => ({ ...validBody(), debtors: [{ ...base, [field]: "A".repeat(n) }] });
    expect(run(make(max)).ok).toBe(true);
    expect(errorsOf(make(max + 1))).toEqual([[`debtors[0].${field}`, "too_long"]]);
  });

  const address: [string, number, string][] = [
    ["street", 150, "s"],
    ["house_number", 10, "1"],
    ["house_number_suffix", 10, "a"],
    ["postal_code", 12, "1"],
    ["city", 100, "c"],
  ];
  it.each(address)("debtors[0].address.%s: %i characters pass, one more is too_long", (field, max, ch) => {
    const country = field === "postal_code" ? { country: "BE" } : {};
    expect(run(withAddress({ ...country, [field]: ch.repeat(max) })).ok).toBe(true);
    expect(errorsOf(withAddress({ ...country, [field]: ch.repeat(max + 1) }))).toEqual([
      [`debtors[0].address.${field}`, "too_long"],
    ]);
  });

  it.each([
    ["invoice_number", 50],
    ["description", 500],
  ])("invoices[0].%s: %i characters pass, one more is too_long", (field, max) => {
    expect(run(withInvoice({ [field]: "x".repeat(max) })).ok).toBe(true);
    expect(errorsOf(withInvoice({ [field]: "x".repeat(max + 1) }))).toEqual([
      [`invoices[0].${field}`, "too_long"],
    ]);
  });

  it("attachments[0].filename: 120 characters pass, 121 are too_long, empty is required", () => {
    const make = (filename: string) => ({ ...validBody(), attachments: [{ ...attachment(), filename }] });
    expect(run(make(`${"a".repeat(116)}.pdf`)).ok).toBe(true);
    expect(errorsOf(make(`${"a".repeat(117)}.pdf`))).toEqual([["attachments[0].filename", "too_long"]]);
    expect(errorsOf(make(""))).toEqual([["attachments[0].filename", "required"]]);
  });

  it("lengths count Unicode code points, as zod's max() does: an emoji outside the BMP counts 1", () => {
    const make = (filename: string) => ({ ...validBody(), attachments: [{ ...attachment(), filename }] });
    const emoji = "\u{1F4C4}"; // 📄: one code point, two UTF-16 code units
    const fits = `${emoji.repeat(116)}.pdf`; // 120 code points, 236 UTF-16 code units
    expect([Array.from(fits).length, fits.length]).toEqual([120, 236]);
    expect(run(make(fits)).ok).toBe(true);
    expect(errorsOf(make(`${emoji}${fits}`))).toEqual([["attachments[0].filename", "too_long"]]);
    expect(run({ ...validBody(), title: emoji.repeat(200) }).ok).toBe(true);
    expect(errorsOf({ ...validBody(), title: emoji.repeat(201) })).toEqual([["title", "too_long"]]);
  });

  it("email: 254 characters pass, 255 are too_long", () => {
    const local = "a".repeat(64);
    const at = (n: number) => `${local}@${"b".repeat(n - local.length - 4)}.nl`;
    expect(at(254).length).toBe(254);
    expect(run(withDebtor({ email: at(254) })).ok).toBe(true);
    expect(errorsOf(withDebtor({ email: at(255) }))).toEqual([["debtors[0].email", "too_long"]]);
  });
});

describe("validateCreateOrder: required fields and required-when", () => {
  it("company_name is required for a business (absent or blank)", () => {
    expect(errorsOf(withDebtor({ company_name: undefined }))).toEqual([
      ["debtors[0].company_name", "required"],
    ]);
    expect(errorsOf(withDebtor({ company_name: "   " }))).toEqual([["debtors[0].company_name", "required"]]);
  });

  it("company_name null is a type error, not 'required' (the spec types it as string)", () => {
    expect(errorsOf(withDebtor({ company_name: null }))).toEqual([
      ["debtors[0].company_name", "invalid_type"],
    ]);
  });

  it("last_name is required for an individual; company_name is not", () => {
    const b = { ...validBody(), debtors: [individual({ last_name: undefined })] };
    expect(errorsOf(b)).toEqual([["debtors[0].last_name", "required"]]);
    expect(run({ ...validBody(), debtors: [individual()] }).ok).toBe(true);
  });

  it("an individual may carry a company_name, a business a last_name", () => {
    expect(run({ ...validBody(), debtors: [individual({ company_name: "Eenmanszaak Vries" })] }).ok).toBe(
      true,
    );
    expect(run(withDebtor({ last_name: "Contact" })).ok).toBe(true);
  });

  it("first_name and middle_name on a business are refused with not_allowed", () => {
    expect(errorsOf(withDebtor({ first_name: "Jan", middle_name: "van" }))).toEqual([
      ["debtors[0].first_name", "not_allowed"],
      ["debtors[0].middle_name", "not_allowed"],
    ]);
  });

  it("blank or null first_name and middle_name on a business are accepted and dropped", () => {
    const r = run(withDebtor({ first_name: "", middle_name: null }));
    expect(r.ok && r.order.debtors[0]).toMatchObject({ first_name: null, middle_name: null });
  });

  it("with an invalid debtor type no required-when rule applies", () => {
    expect(errorsOf(withDebtor({ type: "person", company_name: undefined }))).toEqual([
      ["debtors[0].type", "invalid_value"],
    ]);
  });

  it("every required address field: missing is required, blank is required", () => {
    const b = withAddress({ street: undefined, house_number: "", postal_code: " ", city: undefined });
    expect(errorsOf(b)).toEqual([
      ["debtors[0].address.street", "required"],
      ["debtors[0].address.house_number", "required"],
      ["debtors[0].address.postal_code", "required"],
      ["debtors[0].address.city", "required"],
    ]);
  });

  it("the address itself is required", () => {
    expect(errorsOf(withDebtor({ address: undefined }))).toEqual([["debtors[0].address", "required"]]);
  });

  it("invoice_number, invoice_date and amount_cents are required", () => {
    const b = withInvoice({}, ["invoice_number", "invoice_date", "amount_cents"]);
    expect(errorsOf(b)).toEqual([
      ["invoices[0].invoice_number", "required"],
      ["invoices[0].invoice_date", "required"],
      ["invoices[0].amount_cents", "required"],
    ]);
  });

  it("content_base64 is required and must be a string", () => {
    expect(errorsOf({ ...validBody(), attachments: [{ filename: "a.pdf" }] })).toEqual([
      ["attachments[0].content_base64", "required"],
    ]);
    expect(errorsOf({ ...validBody(), attachments: [{ filename: "a.pdf", content_base64: 12 }] })).toEqual([
      ["attachments[0].content_base64", "invalid_type"],
    ]);
  });

  it("document_type must be invoice, wik_letter, other or null", () => {
    expect(errorsOf({ ...validBody(), attachments: [attachment("letter")] })).toEqual([
      ["attachments[0].document_type", "invalid_value"],
    ]);
    for (const t of ["invoice", "wik_letter", "other", null]) {
      expect(run({ ...validBody(), attachments: [attachment(t)] }).ok).toBe(true);
    }
  });
});

describe("validateCreateOrder: postal code and country", () => {
  it.each([
    ["9999 ZZ", "9999 ZZ"],
    ["9999ZZ", "9999 ZZ"],
    ["9999 zz", "9999 ZZ"],
    ["9999zZ", "9999 ZZ"],
  ])("NL postal code %j is accepted as %j", (input, stored) => {
    const r = run(withAddress({ postal_code: input }));
    expect(r.ok && r.order.debtors[0]?.address.postal_code).toBe(stored);
  });

  it.each([
    "9999  ZZ",
    " 9999 ZZ",
    "9999 ZZ ",
    "9999-ZZ",
    "999 ZZ",
    "99999 ZZ",
    "9999 Z1",
    "ABCD EF",
    "9999 ZZZ",
  ])("NL postal code %j is invalid_format", (postal) => {
    expect(errorsOf(withAddress({ postal_code: postal }))).toEqual([
      ["debtors[0].address.postal_code", "invalid_format"],
    ]);
  });

  it("the NL format is checked when country is absent (default NL) or nl in any case", () => {
    expect(errorsOf(withAddress({ postal_code: "B-1000", country: "nl" }))).toEqual([
      ["debtors[0].address.postal_code", "invalid_format"],
    ]);
  });

  it("other countries keep their postal code unchanged", () => {
    const r = run(withAddress({ postal_code: "B-1000", country: "be" }));
    expect(r.ok && r.order.debtors[0]?.address).toMatchObject({ postal_code: "B-1000", country: "BE" });
  });

  it.each([
    ["NLD", "invalid_format"],
    ["N", "invalid_format"],
    ["", "invalid_format"],
    ["N1", "invalid_format"],
    ["XX", "invalid_country"],
    ["UK", "invalid_country"],
    ["EU", "invalid_country"],
  ])("country %j is refused with %s (and the postal code is not judged)", (country, code) => {
    expect(errorsOf(withAddress({ country, postal_code: "nonsense" }))).toEqual([
      ["debtors[0].address.country", code],
    ]);
  });

  it("country null is a type error (the spec types it as string with a default)", () => {
    expect(errorsOf(withAddress({ country: null }))).toEqual([
      ["debtors[0].address.country", "invalid_type"],
    ]);
  });
});

describe("validateCreateOrder: e-mail and customer number", () => {
  it.each(["jan@example.nl", "j.de.vries+incasso@mail.example.com"])("accepts e-mail %j", (email) => {
    expect(run(withDebtor({ email })).ok).toBe(true);
  });

  it.each(["jan", "jan@", "@example.nl", "jan@example", "jan de vries@example.nl", ""])(
    "refuses e-mail %j",
    (email) => {
      expect(errorsOf(withDebtor({ email }))).toEqual([["debtors[0].email", "invalid_format"]]);
    },
  );

  it.each(["K-1001", "abc.def_ghi/jkl mno-12", "Café 12", "ÆØÅ-1", "Ωμέγα 7"])(
    "accepts customer number %j",
    (n) => {
      expect(run(withDebtor({ customer_number: n })).ok).toBe(true);
    },
  );

  it("stores a decomposed customer number in NFC", () => {
    const r = run(withDebtor({ customer_number: "Cafe\u0301-1" }));
    expect(r.ok && r.order.debtors[0]?.customer_number).toBe("Caf\u00e9-1");
  });

  it("stores a customer number without its leading and trailing spaces, so it merges as the bare one", () => {
    const r = run(withDebtor({ customer_number: "  C-1 " }));
    expect(r.ok && r.order.debtors[0]?.customer_number).toBe("C-1");
    const inner = run(withDebtor({ customer_number: " C 1 " }));
    expect(inner.ok && inner.order.debtors[0]?.customer_number).toBe("C 1");
  });

  it.each(["K#1", "K,1", "K+1", "K\t1", "K:1", "   ", "", "K\u00001", "12\u00b2"])(
    "refuses customer number %j",
    (n) => {
      expect(errorsOf(withDebtor({ customer_number: n }))).toEqual([
        ["debtors[0].customer_number", "invalid_format"],
      ]);
    },
  );
});

describe("validateCreateOrder: dates, term and amount", () => {
  it("invoice_date today passes, tomorrow is date_in_future", () => {
    expect(run(withInvoice({ invoice_date: "2026-11-21" })).ok).toBe(true);
    expect(run(withInvoice({ invoice_date: "2026-11-22" }))).toEqual({
      ok: false,
      code: "validation_error",
      errors: [
        {
          field: "invoices[0].invoice_date",
          code: "date_in_future",
          message: "must not be after today (2026-11-21)",
        },
      ],
    });
  });

  it.each(["2026-02-29", "2026-13-01", "21-11-2026", "2026-1-5", "2026-11-21T00:00:00Z", ""])(
    "invoice_date %j is invalid_format",
    (d) => {
      expect(errorsOf(withInvoice({ invoice_date: d }))).toEqual([
        ["invoices[0].invoice_date", "invalid_format"],
      ]);
    },
  );

  it("due_date must be a real date", () => {
    expect(errorsOf(withInvoice({ due_date: "2026-04-31", payment_term_days: null }))).toEqual([
      ["invoices[0].due_date", "invalid_format"],
    ]);
  });

  it("neither due_date nor payment_term_days: one_of_required on due_date", () => {
    expect(errorsOf(withInvoice({ payment_term_days: null }))).toEqual([
      ["invoices[0].due_date", "one_of_required"],
    ]);
    expect(errorsOf(withInvoice({}, ["payment_term_days"]))).toEqual([
      ["invoices[0].due_date", "one_of_required"],
    ]);
  });

  it("both due_date and payment_term_days: mutually_exclusive on payment_term_days", () => {
    expect(errorsOf(withInvoice({ due_date: "2026-10-31" }))).toEqual([
      ["invoices[0].payment_term_days", "mutually_exclusive"],
    ]);
  });

  it.each([
    [0, "2026-10-01"],
    [1, "2026-10-02"],
    [31, "2026-11-01"],
    [365, "2027-10-01"],
  ])("payment_term_days %i gives due date %s", (days, due) => {
    const r = run(withInvoice({ payment_term_days: days }));
    expect(r.ok && r.order.invoices[0]?.due_date).toBe(due);
  });

  it("payment_term_days -1 is too_small, 366 too_large, 1.5 not_integer, '30' invalid_type", () => {
    expect(errorsOf(withInvoice({ payment_term_days: -1 }))).toEqual([
      ["invoices[0].payment_term_days", "too_small"],
    ]);
    expect(errorsOf(withInvoice({ payment_term_days: 366 }))).toEqual([
      ["invoices[0].payment_term_days", "too_large"],
    ]);
    expect(errorsOf(withInvoice({ payment_term_days: 1.5 }))).toEqual([
      ["invoices[0].payment_term_days", "not_integer"],
    ]);
    expect(errorsOf(withInvoice({ payment_term_days: "30" }))).toEqual([
      ["invoices[0].payment_term_days", "invalid_type"],
    ]);
  });

  it("amount_cents 1 and 100000000000 pass", () => {
    expect(run(withInvoice({ amount_cents: 1 })).ok).toBe(true);
    expect(run(withInvoice({ amount_cents: 100_000_000_000 })).ok).toBe(true);
  });

  it("amount_cents 0 and -5 are too_small with problem code validation_error", () => {
    expect(run(withInvoice({ amount_cents: 0 }))).toEqual({
      ok: false,
      code: "validation_error",
      errors: [{ field: "invoices[0].amount_cents", code: "too_small", message: "must be at least 1" }],
    });
    expect(errorsOf(withInvoice({ amount_cents: -5 }))).toEqual([["invoices[0].amount_cents", "too_small"]]);
  });

  it("amount_cents 100000000001 is amount_too_high, and so is the problem code when it is the only kind", () => {
    expect(run(withInvoice({ amount_cents: 100_000_000_001 }))).toEqual({
      ok: false,
      code: "amount_too_high",
      errors: [
        {
          field: "invoices[0].amount_cents",
          code: "amount_too_high",
          message: "must be at most 100000000000 cents",
        },
      ],
    });
  });

  it("amount_cents 1e20 (beyond the safe integers) is amount_too_high naming the spec's maximum", () => {
    const tooHigh = {
      field: "invoices[0].amount_cents",
      code: "amount_too_high",
      message: "must be at most 100000000000 cents",
    };
    expect(run(withInvoice({ amount_cents: 1e20 }))).toEqual({
      ok: false,
      code: "amount_too_high",
      errors: [tooHigh],
    });
    expect(run(withInvoice({ amount_cents: Number.MAX_SAFE_INTEGER + 1 }))).toEqual({
      ok: false,
      code: "amount_too_high",
      errors: [tooHigh],
    });
  });

  it("several amounts too high keep the problem code amount_too_high", () => {
    const b = validBody();
    b.invoices = [
      { ...b.invoices[0], amount_cents: 2e11 },
      { ...b.invoices[0], invoice_number: "F2", amount_cents: Number.MAX_SAFE_INTEGER },
    ];
    const r = run(b);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.code).toBe("amount_too_high");
    expect(r.errors.map((e) => e.field)).toEqual(["invoices[0].amount_cents", "invoices[1].amount_cents"]);
  });

  it("amount_too_high mixed with another error gives validation_error, listing both", () => {
    const b = withInvoice({ amount_cents: 100_000_000_001, invoice_number: "" });
    expect(run(b)).toMatchObject({ ok: false, code: "validation_error" });
    expect(errorsOf(b)).toEqual([
      ["invoices[0].invoice_number", "required"],
      ["invoices[0].amount_cents", "amount_too_high"],
    ]);
  });

  it("amount_cents 12.5 is not_integer, a string is invalid_type", () => {
    expect(errorsOf(withInvoice({ amount_cents: 12.5 }))).toEqual([
      ["invoices[0].amount_cents", "not_integer"],
    ]);
    expect(errorsOf(withInvoice({ amount_cents: "125000" }))).toEqual([
      ["invoices[0].amount_cents", "invalid_type"],
    ]);
  });
});

describe("validateCreateOrder: counts", () => {
  const debtors = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ ...validBody().debtors[0], customer_number: `K-${i}` }));
  const invoices = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ ...validBody().invoices[0], invoice_number: `F-${i}` }));

  it("1 and 5 debtors pass; 0 is too_few_items, 6 too_many_items", () => {
    expect(run({ ...validBody(), debtors: debtors(1) }).ok).toBe(true);
    expect(run({ ...validBody(), debtors: debtors(5) }).ok).toBe(true);
    expect(errorsOf({ ...validBody(), debtors: [] })).toEqual([["debtors", "too_few_items"]]);
    expect(errorsOf({ ...validBody(), debtors: debtors(6) })).toEqual([["debtors", "too_many_items"]]);
  });

  it("1 and 50 invoices pass; 0 is too_few_items, 51 too_many_items", () => {
    expect(run({ ...validBody(), invoices: invoices(50) }).ok).toBe(true);
    expect(errorsOf({ ...validBody(), invoices: [] })).toEqual([["invoices", "too_few_items"]]);
    expect(errorsOf({ ...validBody(), invoices: invoices(51) })).toEqual([["invoices", "too_many_items"]]);
  });

  it("the entries of an oversized list are not judged one by one", () => {
    const list: Record<string, unknown>[] = invoices(51);
    list[3] = { ...list[3], amount_cents: 0, invoice_date: "2030-01-01" };
    expect(errorsOf({ ...validBody(), invoices: list })).toEqual([["invoices", "too_many_items"]]);
  });

  it("attachments: 30 pass by default, 31 are too_many_attachments; ctx.maxAttachments lowers the limit", () => {
    const atts = (n: number) => Array.from({ length: n }, () => attachment());
    expect(run({ ...validBody(), attachments: atts(30) }).ok).toBe(true);
    expect(errorsOf({ ...validBody(), attachments: atts(31) })).toEqual([
      ["attachments", "too_many_attachments"],
    ]);
    const ctx = { ...CTX, maxAttachments: 10 };
    expect(run({ ...validBody(), attachments: atts(10) }, ctx).ok).toBe(true);
    expect(errorsOf({ ...validBody(), attachments: atts(11) }, ctx)).toEqual([
      ["attachments", "too_many_attachments"],
    ]);
  });

  it("an empty attachment list is fine", () => {
    expect(run({ ...validBody(), attachments: [] }).ok).toBe(true);
  });
});

describe("validateCreateOrder: metadata", () => {
  const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, "v"]));

  it("30 keys pass, 31 are too_many_keys (entries then not judged)", () => {
    expect(run({ ...validBody(), metadata: keys(30) }).ok).toBe(true);
    expect(errorsOf({ ...validBody(), metadata: { ...keys(31), k0: 5 } })).toEqual([
      ["metadata", "too_many_keys"],
    ]);
  });

  it("a key of 40 characters passes, 41 is key_too_long", () => {
    expect(run({ ...validBody(), metadata: { ["k".repeat(40)]: "v" } }).ok).toBe(true);
    expect(errorsOf({ ...validBody(), metadata: { ["k".repeat(41)]: "v" } })).toEqual([
      [`metadata.${"k".repeat(41)}`, "key_too_long"],
    ]);
  });

  it("a value of 500 characters passes, 501 is too_long", () => {
    expect(run({ ...validBody(), metadata: { a: "v".repeat(500) } }).ok).toBe(true);
    expect(errorsOf({ ...validBody(), metadata: { a: "v".repeat(501) } })).toEqual([
      ["metadata.a", "too_long"],
    ]);
  });

  it("values must be strings; keys that are not identifiers are quoted in the path", () => {
    expect(errorsOf({ ...validBody(), metadata: { n: 1, b: true, "order id": null, x: {} } })).toEqual([
      ["metadata.n", "invalid_type"],
      ["metadata.b", "invalid_type"],
      ['metadata["order id"]', "invalid_type"],
      ["metadata.x", "invalid_type"],
    ]);
  });

  // JSON.parse makes `__proto__` an own key; an object literal would set the prototype instead.
  const reserved = () =>
    JSON.parse('{"__proto__":"p","constructor":"c","prototype":"t","hasOwnProperty":"h"}');

  it("keys named __proto__, constructor and prototype are kept as sent, in order, and reach no prototype", () => {
    const r = run({ ...validBody(), metadata: reserved() });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Object.entries(r.order.metadata)).toEqual([
      ["__proto__", "p"],
      ["constructor", "c"],
      ["prototype", "t"],
      ["hasOwnProperty", "h"],
    ]);
    expect(Object.getPrototypeOf(r.order.metadata)).toBe(Object.prototype);
    expect(JSON.stringify(r.order.metadata)).toBe(
      '{"__proto__":"p","constructor":"c","prototype":"t","hasOwnProperty":"h"}',
    );
    expect(({} as Record<string, unknown>).p).toBeUndefined();
  });

  it("a __proto__ key is judged like any other: its value must be a string of at most 500 characters", () => {
    const body = (value: string) => ({
      ...validBody(),
      metadata: JSON.parse(`{"a":"b","__proto__":${value}}`),
    });
    expect(errorsOf(body('{"polluted":"yes"}'))).toEqual([["metadata.__proto__", "invalid_type"]]);
    expect(errorsOf(body("5"))).toEqual([["metadata.__proto__", "invalid_type"]]);
    expect(errorsOf(body(JSON.stringify("v".repeat(501))))).toEqual([["metadata.__proto__", "too_long"]]);
    expect(run(body(JSON.stringify("v".repeat(500)))).ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("a __proto__ key counts towards the 30 keys", () => {
    const metadata = JSON.parse(
      `{"__proto__":"p",${Array.from({ length: 30 }, (_, i) => `"k${i}":"v"`).join(",")}}`,
    );
    expect(errorsOf({ ...validBody(), metadata })).toEqual([["metadata", "too_many_keys"]]);
  });

  it("metadata must be an object", () => {
    expect(errorsOf({ ...validBody(), metadata: ["a"] })).toEqual([["metadata", "invalid_type"]]);
    expect(errorsOf({ ...validBody(), metadata: null })).toEqual([["metadata", "invalid_type"]]);
  });
});

describe("validateCreateOrder: udf_fields", () => {
  const ctx: ValidateCreateOrderContext = {
    today: "2026-11-21",
    udfDefinitions: [
      { name: "project", type: "text" },
      { name: "priority", type: "number" },
      { name: "vip", type: "boolean" },
      { name: "contract_date", type: "date" },
    ],
  };

  it("typed values pass; udf_fields is echoed as sent, case_udf_fields holds the defined keys", () => {
    const udf = { project: "P-17", priority: 2.5, vip: false, contract_date: "2026-01-31", colour: "red" };
    const r = run({ ...validBody(), udf_fields: udf }, ctx);
    expect(r).toMatchObject({ ok: true });
    if (!r.ok) return;
    expect(r.order.udf_fields).toEqual(udf);
    expect(r.order.case_udf_fields).toEqual({
      project: "P-17",
      priority: 2.5,
      vip: false,
      contract_date: "2026-01-31",
    });
    expect(r.warnings).toEqual([
      {
        code: "udf_field_unknown",
        message: 'Het maatwerkveld "colour" is niet voor dit account afgesproken en is overgeslagen.',
        invoice_number: null,
      },
    ]);
  });

  it("one udf_field_unknown warning per unknown key; names match exactly (case-sensitive); values of unknown keys are not judged", () => {
    const r = run({ ...validBody(), udf_fields: { Project: "x", a: null, b: { deep: 1 } } }, ctx);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.warnings.map((w) => [w.code, w.message])).toEqual([
      [
        "udf_field_unknown",
        'Het maatwerkveld "Project" is niet voor dit account afgesproken en is overgeslagen.',
      ],
      ["udf_field_unknown", 'Het maatwerkveld "a" is niet voor dit account afgesproken en is overgeslagen.'],
      ["udf_field_unknown", 'Het maatwerkveld "b" is niet voor dit account afgesproken en is overgeslagen.'],
    ]);
    expect(r.order.case_udf_fields).toEqual({});
  });

  it("values of the wrong type are refused per key", () => {
    const udf = { project: 17, priority: "2", vip: "yes", contract_date: "31-01-2026" };
    expect(errorsOf({ ...validBody(), udf_fields: udf }, ctx)).toEqual([
      ["udf_fields.project", "invalid_type"],
      ["udf_fields.priority", "invalid_type"],
      ["udf_fields.vip", "invalid_type"],
      ["udf_fields.contract_date", "invalid_format"],
    ]);
    expect(errorsOf({ ...validBody(), udf_fields: { contract_date: 20260131, project: null } }, ctx)).toEqual(
      [
        ["udf_fields.contract_date", "invalid_type"],
        ["udf_fields.project", "invalid_type"],
      ],
    );
  });

  it("25 keys pass, 26 are too_many_keys", () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`u${i}`, i]));
    expect(run({ ...validBody(), udf_fields: keys(25) }, ctx).ok).toBe(true);
    expect(errorsOf({ ...validBody(), udf_fields: keys(26) }, ctx)).toEqual([
      ["udf_fields", "too_many_keys"],
    ]);
  });

  it("keys named __proto__, constructor and prototype are echoed as sent and, when defined, written to the case", () => {
    const defined: ValidateCreateOrderContext = {
      today: "2026-11-21",
      udfDefinitions: [
        { name: "__proto__", type: "text" },
        { name: "constructor", type: "number" },
      ],
    };
    const udf_fields = JSON.parse('{"__proto__":"u","constructor":1,"prototype":true}');
    const r = run({ ...validBody(), udf_fields }, defined);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Object.entries(r.order.udf_fields)).toEqual([
      ["__proto__", "u"],
      ["constructor", 1],
      ["prototype", true],
    ]);
    expect(Object.entries(r.order.case_udf_fields)).toEqual([
      ["__proto__", "u"],
      ["constructor", 1],
    ]);
    expect(Object.getPrototypeOf(r.order.case_udf_fields)).toBe(Object.prototype);
    expect(r.warnings.map((w) => w.message)).toEqual([
      'Het maatwerkveld "prototype" is niet voor dit account afgesproken en is overgeslagen.',
    ]);
    expect(errorsOf({ ...validBody(), udf_fields: JSON.parse('{"__proto__":{"x":1}}') }, defined)).toEqual([
      ["udf_fields.__proto__", "invalid_type"],
    ]);
  });

  it("udf_fields must be an object", () => {
    expect(errorsOf({ ...validBody(), udf_fields: "x" }, ctx)).toEqual([["udf_fields", "invalid_type"]]);
  });
});

describe("validateCreateOrder: creditor", () => {
  it("neither id nor reference is one_of_required, both mutually_exclusive, blank required", () => {
    expect(errorsOf({ ...validBody(), creditor: {} })).toEqual([["creditor.id", "one_of_required"]]);
    expect(errorsOf({ ...validBody(), creditor: { id: "a", reference: "b" } })).toEqual([
      ["creditor.reference", "mutually_exclusive"],
    ]);
    expect(errorsOf({ ...validBody(), creditor: { reference: " " } })).toEqual([
      ["creditor.reference", "required"],
    ]);
    expect(errorsOf({ ...validBody(), creditor: { id: 5 } })).toEqual([["creditor.id", "invalid_type"]]);
    expect(errorsOf({ ...validBody(), creditor: "ACME" })).toEqual([["creditor", "invalid_type"]]);
  });
});

describe("validateCreateOrder: wik_letter_required", () => {
  const incasso = (debtors: unknown[], attachments?: unknown[]) => ({
    ...validBody(),
    type: "incasso",
    debtors,
    ...(attachments === undefined ? {} : { attachments }),
  });

  it("incasso against an individual without a wik_letter attachment is refused with problem code wik_letter_required", () => {
    expect(run(incasso([individual()], [attachment("invoice")]))).toEqual({
      ok: false,
      code: "wik_letter_required",
      errors: [
        {
          field: "attachments",
          code: "wik_letter_required",
          message: "an incasso order against an individual needs an attachment with document_type wik_letter",
        },
      ],
    });
    expect(run(incasso([individual()])).ok).toBe(false);
  });

  it("any individual among several debtors triggers it", () => {
    expect(errorsOf(incasso([validBody().debtors[0], individual()]))).toEqual([
      ["attachments", "wik_letter_required"],
    ]);
  });

  it("passes with a wik_letter attachment, for pre-incasso, and for businesses only", () => {
    expect(run(incasso([individual()], [attachment("invoice"), attachment("wik_letter")])).ok).toBe(true);
    expect(run({ ...validBody(), debtors: [individual()] }).ok).toBe(true);
    expect(run(incasso([validBody().debtors[0]])).ok).toBe(true);
  });

  it("mixed with another error the problem code is validation_error", () => {
    const r = run({ ...incasso([individual()]), reference: "x".repeat(101) });
    expect(r).toMatchObject({ ok: false, code: "validation_error" });
    expect(errorsOf({ ...incasso([individual()]), reference: "x".repeat(101) })).toEqual([
      ["reference", "too_long"],
      ["attachments", "wik_letter_required"],
    ]);
  });

  it("amount_too_high together with wik_letter_required is validation_error", () => {
    const b = incasso([individual()]);
    b.invoices = [{ ...validBody().invoices[0], amount_cents: 1e12 }];
    expect(run(b)).toMatchObject({ ok: false, code: "validation_error" });
    expect(errorsOf(b)).toEqual([
      ["invoices[0].amount_cents", "amount_too_high"],
      ["attachments", "wik_letter_required"],
    ]);
  });
});

describe("validateCreateOrder: all violations at once", () => {
  it("reports violations from every level in one result, with exact paths", () => {
    const body = {
      type: "incasso",
      reference: 12,
      metadata: { a: 1 },
      creditor: { id: "c", reference: "r" },
      debtors: [
        {
          type: "business",
          first_name: "Jan",
          company_name: "x".repeat(201),
          address: { street: "S", house_number: "1", postal_code: "1234-AB", city: "C" },
        },
        {
          type: "individual",
          email: "nope",
          address: { street: "S", house_number: "1", postal_code: "1234 AB", city: "C", country: "XX" },
        },
      ],
      invoices: [
        { invoice_number: "F1", invoice_date: "2027-01-01", amount_cents: 100_000_000_001 },
        {
          invoice_number: "F2",
          invoice_date: "2026-01-01",
          due_date: "2026-02-01",
          payment_term_days: 5,
          amount_cents: 0.5,
        },
      ],
    };
    expect(run(body)).toMatchObject({ ok: false, code: "validation_error" });
    expect(errorsOf(body).sort()).toEqual(
      [
        ["reference", "invalid_type"],
        ["creditor.reference", "mutually_exclusive"],
        ["metadata.a", "invalid_type"],
        ["debtors[0].company_name", "too_long"],
        ["debtors[0].first_name", "not_allowed"],
        ["debtors[0].address.postal_code", "invalid_format"],
        ["debtors[1].last_name", "required"],
        ["debtors[1].email", "invalid_format"],
        ["debtors[1].address.country", "invalid_country"],
        ["invoices[0].due_date", "one_of_required"],
        ["invoices[0].amount_cents", "amount_too_high"],
        ["invoices[0].invoice_date", "date_in_future"],
        ["invoices[1].payment_term_days", "mutually_exclusive"],
        ["invoices[1].amount_cents", "not_integer"],
        ["attachments", "wik_letter_required"],
      ].sort(),
    );
  });

  it("never reports the same field and code twice", () => {
    const r = run(withInvoice({ payment_term_days: null, amount_cents: 1.5 }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const keys = r.errors.map((e) => `${e.field} ${e.code}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual(["invoices[0].amount_cents not_integer", "invoices[0].due_date one_of_required"]);
  });
});

describe("validateCreateOrder: unknown fields", () => {
  it("tolerates unknown fields at every level with one Dutch unknown_field warning each", () => {
    const b = validBody();
    (b as Record<string, unknown>).priority = "high";
    b.debtors[0] = {
      ...b.debtors[0],
      kvk: "12345678",
      address: { ...(b.debtors[0]?.address as object), region: "Noord" },
    };
    b.invoices[0] = { ...b.invoices[0], vat_cents: 100 };
    const r = run({ ...b, creditor: { id: "c1", name: "x" }, attachments: [{ ...attachment(), size: 1 }] });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.warnings).toEqual([
      {
        code: "unknown_field",
        message: "Het veld priority is onbekend en is genegeerd.",
        invoice_number: null,
      },
      {
        code: "unknown_field",
        message: "Het veld creditor.name is onbekend en is genegeerd.",
        invoice_number: null,
      },
      {
        code: "unknown_field",
        message: "Het veld debtors[0].kvk is onbekend en is genegeerd.",
        invoice_number: null,
      },
      {
        code: "unknown_field",
        message: "Het veld debtors[0].address.region is onbekend en is genegeerd.",
        invoice_number: null,
      },
      {
        code: "unknown_field",
        message: "Het veld invoices[0].vat_cents is onbekend en is genegeerd.",
        invoice_number: "F-2026-001",
      },
      {
        code: "unknown_field",
        message: "Het veld attachments[0].size is onbekend en is genegeerd.",
        invoice_number: null,
      },
    ]);
    expect(r.order).not.toHaveProperty("priority");
    expect(r.order.debtors[0]).not.toHaveProperty("kvk");
  });

  it("names at most 20 unknown fields and counts the rest in one more warning", () => {
    const extra = Object.fromEntries(Array.from({ length: 23 }, (_, i) => [`x${i}`, i]));
    const r = run({ ...validBody(), ...extra });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.warnings).toHaveLength(21);
    expect(r.warnings[19]?.message).toBe("Het veld x19 is onbekend en is genegeerd.");
    expect(r.warnings[20]).toEqual({
      code: "unknown_field",
      message: "Nog 3 onbekende velden zijn genegeerd.",
      invoice_number: null,
    });
  });

  it("unknown-field warnings come before udf warnings", () => {
    const r = run({ ...validBody(), zz: 1, udf_fields: { q: 1 } });
    expect(r.ok && r.warnings.map((w) => w.code)).toEqual(["unknown_field", "udf_field_unknown"]);
  });
});

describe("validateCreateOrder: context", () => {
  it("throws invalid_argument on a malformed ctx", () => {
    expect(() => validateCreateOrder(validBody(), { today: "21-11-2026", udfDefinitions: [] })).toThrow(
      expect.objectContaining({ code: "invalid_argument" }),
    );
    expect(() =>
      validateCreateOrder(validBody(), {
        today: "2026-11-21",
        udfDefinitions: [{ name: "a", type: "money" as "text" }],
      }),
    ).toThrow(expect.objectContaining({ code: "invalid_argument" }));
    expect(() => validateCreateOrder(validBody(), { ...CTX, maxAttachments: -1 })).toThrow(
      expect.objectContaining({ code: "invalid_argument" }),
    );
  });

  it("does not change the body it was given", () => {
    const b = {
      ...validBody(),
      metadata: Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`k${i}`, "v"])),
    };
    const before = JSON.stringify(b);
    run(b);
    expect(JSON.stringify(b)).toBe(before);
  });
});
