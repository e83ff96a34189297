import { describe, expectTypeOf, it } from "vitest";
import { createIncassoClient } from "./create-incasso-client.js";
import { orderBody } from "./internal/testing/order-bodies.js";
import type { ResponseMeta, WithResponse } from "./response-meta.js";
import type {
  CreateOrder,
  ListOrdersQuery,
  Order,
  OrderListItem,
  OrderStatus,
  WikRequest,
} from "./wire-types.js";

// Compile-time checks: `pnpm typecheck` (tsc over packages/*/src) fails when a line under an
// expect-error directive compiles, so each directive marks a request the types must refuse. The
// function is never called: only its types matter.
const client = createIncassoClient({ baseUrl: "http://127.0.0.1:1/api/v1", apiKey: "svc_test_x" });
const body = orderBody("TYPES");

export function refusedAtCompileTime(): void {
  void client.orders.create({
    ...body,
    invoices: [
      {
        invoice_number: "F-1",
        invoice_date: "2026-09-01",
        // @ts-expect-error amount_cents is an integer of cents, not a string
        amount_cents: "1250.00",
      },
    ],
  });
  // @ts-expect-error an unknown field (the creditor is fixed by the key, except through `creditor`)
  void client.orders.create({ ...body, creditor_id: "cred_0123456789abcdef" });
  // @ts-expect-error type is "pre-incasso" or "incasso"
  void client.orders.create({ ...body, type: "collection" });
  // @ts-expect-error debtors and invoices are required
  void client.orders.create({ type: "incasso" });
  // @ts-expect-error the list has no status filter (spec, GET /orders)
  void client.orders.list({ status: "open" });
  // @ts-expect-error limit is a number
  void client.orders.all({ limit: "10" });
  // @ts-expect-error a payment report needs amount_cents
  void client.orders.reportPayment("ord_0123456789abcdef", { payment_date: "2026-11-20" });
  // @ts-expect-error camelCase is for options, wire objects are snake_case
  void client.tools.wik({ amountCents: 125000 });
  // @ts-expect-error options are camelCase
  createIncassoClient({ base_url: "http://127.0.0.1/api/v1" });
  // @ts-expect-error idempotencyKey only exists on the two create methods
  void client.orders.get("ord_0123456789abcdef", { idempotencyKey: "k" });
}

describe("types", () => {
  it("methods take and return the spec's wire objects", () => {
    expectTypeOf(client.orders.create).parameter(0).toEqualTypeOf<CreateOrder>();
    expectTypeOf(client.orders.create).returns.resolves.toEqualTypeOf<WithResponse<Order>>();
    expectTypeOf(client.orders.get).returns.resolves.toEqualTypeOf<WithResponse<OrderStatus>>();
    expectTypeOf<Order["total_amount_cents"]>().toEqualTypeOf<number>();
    expectTypeOf<Order["case"]["case_number"]>().toEqualTypeOf<string | null>();
    expectTypeOf<Order["$response" & keyof Order]>().toBeNever();
    expectTypeOf<WithResponse<Order>["$response"]>().toEqualTypeOf<ResponseMeta>();
    expectTypeOf(client.orders.all).returns.toEqualTypeOf<AsyncIterableIterator<OrderListItem>>();
    expectTypeOf<ListOrdersQuery["type"]>().toEqualTypeOf<"pre-incasso" | "incasso" | undefined>();
  });

  it("request fields with a server default stay optional", () => {
    expectTypeOf<{ amount_cents: number }>().toMatchTypeOf<WikRequest>();
    expectTypeOf<WikRequest["include_vat"]>().toEqualTypeOf<boolean | undefined>();
  });

  it("refusedAtCompileTime is a function (its lines are checked by tsc)", () => {
    expectTypeOf(refusedAtCompileTime).toBeFunction();
  });
});
