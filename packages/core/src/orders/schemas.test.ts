import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AddressSchema } from "./address-schema.js";
import {
  HoldRequestSchema,
  OrderActionSchema,
  PaymentReportSchema,
  WithdrawRequestSchema,
} from "./control-request-schemas.js";
import { CreateOrderSchema, MetadataSchema, UdfFieldsSchema } from "./create-order-schema.js";
import { CreditorRefSchema } from "./creditor-ref-schema.js";
import { DebtorSchema } from "./debtor-schema.js";
import { OrderFieldErrorSchema } from "./field-error.js";
import { CTX, individual, validBody } from "./internal/testing/fixtures.js";
import { InvoiceSchema } from "./invoice-schema.js";
import { OrderIdSchema } from "./order-id.js";
import { ListOrdersQuerySchema, OrderListItemSchema, OrderListSchema } from "./order-list-schema.js";
import { OrderSchema } from "./order-schema.js";
import { OrderStatusSchema } from "./order-status-schema.js";
import { validateCreateOrder } from "./validate-create-order.js";
import { WarningSchema } from "./warnings.js";

const TOP_LEVEL: [string, z.ZodType][] = [
  ["CreateOrder", CreateOrderSchema],
  ["Debtor", DebtorSchema],
  ["Address", AddressSchema],
  ["Invoice", InvoiceSchema],
  ["CreditorRef", CreditorRefSchema],
  ["Order", OrderSchema],
  ["OrderListItem", OrderListItemSchema],
  ["OrderList", OrderListSchema],
  ["OrderStatus", OrderStatusSchema],
  ["OrderAction", OrderActionSchema],
  ["Warning", WarningSchema],
  ["HoldRequest", HoldRequestSchema],
  ["WithdrawRequest", WithdrawRequestSchema],
  ["PaymentReport", PaymentReportSchema],
  ["ListOrdersQuery", ListOrdersQuerySchema],
  ["OrderId", OrderIdSchema],
  ["OrderFieldError", OrderFieldErrorSchema],
];

/** The JSON Schema of a named schema, taken from the `$defs` that meta ids produce. */
function defOf(schema: z.ZodType, id: string): unknown {
  const json = z.toJSONSchema(schema, { io: "input" }) as { $ref?: string; $defs?: Record<string, unknown> };
  expect(json.$ref).toBe(`#/$defs/${id}`);
  return json.$defs?.[id];
}

describe("schemas and JSON Schema", () => {
  it.each(TOP_LEVEL)("%s carries its meta id and a description", (id, schema) => {
    const meta = schema.meta() as { id?: string; description?: string } | undefined;
    expect(meta?.id).toBe(id);
    expect(meta?.description?.length ?? 0).toBeGreaterThan(0);
  });

  it.each([...TOP_LEVEL, ["Metadata", MetadataSchema], ["UdfFields", UdfFieldsSchema]] as [
    string,
    z.ZodType,
  ][])("%s converts with z.toJSONSchema in input and output form", (_id, schema) => {
    expect(() => z.toJSONSchema(schema, { io: "input" })).not.toThrow();
    expect(() => z.toJSONSchema(schema, { io: "output" })).not.toThrow();
  });

  it("the CreateOrder JSON Schema states the limits and the required fields", () => {
    const json = defOf(CreateOrderSchema, "CreateOrder") as {
      required: string[];
      properties: Record<string, { maxItems?: number; minItems?: number; maxLength?: number }>;
    };
    expect(json.required).toEqual(["type", "debtors", "invoices"]);
    expect(json.properties.debtors).toMatchObject({ minItems: 1, maxItems: 5 });
    expect(json.properties.invoices).toMatchObject({ minItems: 1, maxItems: 50 });
    const invoice = defOf(InvoiceSchema, "Invoice") as {
      required: string[];
      properties: Record<string, Record<string, unknown>>;
    };
    expect(invoice.required).toEqual(["invoice_number", "invoice_date", "amount_cents"]);
    expect(invoice.properties.amount_cents).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 100000000000,
    });
    const address = defOf(AddressSchema, "Address") as { required: string[] };
    expect(address.required).toEqual(["street", "house_number", "postal_code", "city"]);
  });

  it("the ListOrdersQuery JSON Schema shows limit as an integer 1..100 with default 25", () => {
    const json = defOf(ListOrdersQuerySchema, "ListOrdersQuery") as { properties: Record<string, unknown> };
    expect(json.properties.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 25 });
  });

  it("the schemas alone enforce the cross-field rules too", () => {
    const b = { ...validBody(), debtors: [individual({ last_name: undefined })] };
    const r = CreateOrderSchema.safeParse(b);
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join("."))).toEqual(["debtors.0.last_name"]);
    expect(
      InvoiceSchema.safeParse({ invoice_number: "F", invoice_date: "2026-01-01", amount_cents: 1 }).success,
    ).toBe(false);
    expect(CreditorRefSchema.safeParse({}).success).toBe(false);
    expect(
      AddressSchema.safeParse({
        street: "S",
        house_number: "1",
        postal_code: "1234-AB",
        city: "T",
        country: "NL",
      }).success,
    ).toBe(false);
  });
});

describe("response schemas accept what the helpers produce", () => {
  it("an Order built from a validated order", () => {
    const r = validateCreateOrder(validBody(), CTX);
    if (!r.ok) throw new Error("fixture invalid");
    const order = {
      id: "ord_0123456789abcdef",
      object: "order",
      mode: "test",
      type: r.order.type,
      reference: r.order.reference,
      case: { case_number: null, new: true },
      debtors: [{ name: "Test B.V.", customer_number: "K-1001" }],
      invoice_count: 1,
      total_amount_cents: 125000,
      metadata: r.order.metadata,
      udf_fields: r.order.udf_fields,
      warnings: [
        { code: "test_mode", message: "Testmodus: er is geen dossier aangemaakt.", invoice_number: null },
      ],
      created_at: "2026-11-21T10:15:00.000Z",
    };
    expect(OrderSchema.parse(order)).toEqual(order);
  });

  it("a Warning with an unknown code is accepted (clients tolerate unknown codes)", () => {
    expect(WarningSchema.safeParse({ code: "some_future_code", message: "x" }).success).toBe(true);
  });

  it("OrderStatus without balance_due_cents and with one", () => {
    const base = {
      id: "ord_0123456789abcdef",
      object: "order",
      mode: "live",
      type: "incasso",
      reference: null,
      case: { case_number: "2026-000123", new: false, status: "Nieuw", open: true },
      invoice_count: 1,
      total_amount_cents: 100,
      warnings: [],
      actions: [
        {
          action: "payments",
          status: "requested",
          reason: null,
          amount_cents: 50,
          created_at: "2026-11-21T10:15:00Z",
        },
      ],
      created_at: "2026-11-21T10:00:00Z",
    };
    expect(OrderStatusSchema.safeParse(base).success).toBe(true);
    expect(
      OrderStatusSchema.safeParse({
        ...base,
        case: { ...base.case, status: "In behandeling", balance_due_cents: 15000 },
      }).success,
    ).toBe(true);
    expect(OrderStatusSchema.safeParse({ ...base, id: "ord_1" }).success).toBe(false);
  });

  it("OrderAction requires status requested", () => {
    const action = {
      id: "ord_0123456789abcdef",
      object: "order_action",
      action: "hold",
      status: "requested",
      case: { case_number: "2026-000123" },
      message: "Het verzoek is doorgegeven aan de behandelaar.",
      created_at: "2026-11-21T10:15:00Z",
    };
    expect(OrderActionSchema.safeParse(action).success).toBe(true);
    expect(OrderActionSchema.safeParse({ ...action, status: "done" }).success).toBe(false);
  });

  it("OrderList", () => {
    expect(
      OrderListSchema.safeParse({ object: "list", data: [], has_more: false, next_cursor: null }).success,
    ).toBe(true);
  });
});
