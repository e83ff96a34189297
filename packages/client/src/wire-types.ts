// The spec's wire objects, taken from the types generated from the served OpenAPI document
// (src/generated/openapi.generated.ts), so a field added or changed on the server shows up here at
// the next regeneration and the drift test fails until it does.
// Written out per type (no helper generics) so the API reference shows each one's source.
import type { components, operations } from "./generated/openapi.generated.js";

/**
 * Body of POST /orders (spec: CreateOrder).
 *
 * @example
 * const body: CreateOrder = {
 *   type: "pre-incasso",
 *   debtors: [{ type: "business", company_name: "Voorbeeld B.V.", address: { street: "Teststraat", house_number: "10", postal_code: "9999 ZZ", city: "Testdorp" } }],
 *   invoices: [{ invoice_number: "F-1", invoice_date: "2026-09-01", payment_term_days: 14, amount_cents: 125000 }],
 * };
 */
export type CreateOrder = NonNullable<
  operations["createOrder"]["requestBody"]
>["content"]["application/json"];
/**
 * A debtor of an order (spec: Debtor).
 *
 * @example
 * const debtor: Debtor = { type: "individual", last_name: "Vries", address };
 */
export type Debtor = components["schemas"]["Debtor"];
/**
 * An address of a debtor (spec: Address).
 *
 * @example
 * const address: Address = { street: "Teststraat", house_number: "10", postal_code: "9999 ZZ", city: "Testdorp" };
 */
export type Address = components["schemas"]["Address"];
/**
 * An invoice of an order (spec: Invoice); amounts in euro cents.
 *
 * @example
 * const invoice: Invoice = { invoice_number: "F-1", invoice_date: "2026-09-01", due_date: "2026-09-15", amount_cents: 125000 };
 */
export type Invoice = components["schemas"]["Invoice"];
/**
 * A PDF attachment of an order (spec: Attachment).
 *
 * @example
 * const attachment: Attachment = { filename: "F-1.pdf", content_base64: pdfBase64, document_type: "invoice" };
 */
export type Attachment = components["schemas"]["Attachment"];
/**
 * Answer of POST /orders, status 201 (spec: Order).
 *
 * @example
 * const order: Order = await client.orders.create(body);
 * console.log(order.case.case_number, order.warnings.map((w) => w.code));
 */
export type Order = operations["createOrder"]["responses"][201]["content"]["application/json"];
/**
 * A non-blocking warning (spec: Warning). Tolerate codes you do not know (spec, Versioning).
 *
 * @example
 * const merged = order.warnings.some((w: Warning) => w.code === "attached_to_existing_case");
 */
export type Warning = components["schemas"]["Warning"];
/**
 * Query of GET /orders: filters, `limit` and `cursor`.
 *
 * @example
 * const query: ListOrdersQuery = { customer_number: "K-1001", limit: 100 };
 */
export type ListOrdersQuery = NonNullable<operations["listOrders"]["parameters"]["query"]>;
/**
 * One page of GET /orders (spec: OrderList).
 *
 * @example
 * const page: OrderList = await client.orders.list({ limit: 10 });
 * if (page.has_more) await client.orders.list({ limit: 10, cursor: page.next_cursor ?? undefined });
 */
export type OrderList = operations["listOrders"]["responses"][200]["content"]["application/json"];
/**
 * One order in a page of GET /orders.
 *
 * @example
 * for await (const item of client.orders.all()) console.log((item satisfies OrderListItem).debtors_summary);
 */
export type OrderListItem = OrderList["data"][number];
/**
 * Answer of GET /orders/{orderId} (spec: OrderStatus), with the live case status.
 *
 * @example
 * const status: OrderStatus = await client.orders.get("ord_0123456789abcdef");
 * console.log(status.case.status, status.case.balance_due_cents);
 */
export type OrderStatus = operations["getOrder"]["responses"][200]["content"]["application/json"];
/**
 * Body of POST /orders/{orderId}/hold (optional).
 *
 * @example
 * const body: HoldRequest = { reason: "Debtor disputes invoice F-2" };
 */
export type HoldRequest = NonNullable<operations["holdOrder"]["requestBody"]>["content"]["application/json"];
/**
 * Body of POST /orders/{orderId}/withdraw (optional).
 *
 * @example
 * const body: WithdrawRequest = { reason: "Settled between the parties" };
 */
export type WithdrawRequest = NonNullable<
  operations["withdrawOrder"]["requestBody"]
>["content"]["application/json"];
/**
 * Body of POST /orders/{orderId}/payments.
 *
 * @example
 * const body: PaymentReport = { amount_cents: 5000, payment_date: "2026-11-20" };
 */
export type PaymentReport = NonNullable<
  operations["reportPayment"]["requestBody"]
>["content"]["application/json"];
/**
 * Answer of the three control requests, status 202 (spec: OrderAction).
 *
 * @example
 * const action: OrderAction = await client.orders.hold("ord_0123456789abcdef");
 * console.log(action.status); // "requested"
 */
export type OrderAction = operations["holdOrder"]["responses"][202]["content"]["application/json"];
/**
 * Query of GET /creditors: `limit` and `cursor`.
 *
 * @example
 * const query: ListCreditorsQuery = { limit: 100 };
 */
export type ListCreditorsQuery = NonNullable<operations["listCreditors"]["parameters"]["query"]>;
/**
 * One page of GET /creditors (docs/decisions/creditors-shapes.md).
 *
 * @example
 * const page: CreditorList = await client.creditors.list();
 */
export type CreditorList = operations["listCreditors"]["responses"][200]["content"]["application/json"];
/**
 * Body of POST /creditors.
 *
 * @example
 * const body: CreateCreditorRequest = { reference: "CR-7", name: "Dochter B.V." };
 */
export type CreateCreditorRequest = NonNullable<
  operations["createCreditor"]["requestBody"]
>["content"]["application/json"];
/**
 * A creditor (answer of POST /creditors, item of GET /creditors).
 *
 * @example
 * const creditor: Creditor = await client.creditors.create({ reference: "CR-7", name: "Dochter B.V." });
 */
export type Creditor = operations["createCreditor"]["responses"][201]["content"]["application/json"];
/**
 * Body of POST /tools/wik.
 *
 * @example
 * const body: WikRequest = { amount_cents: 125000, debtor_type: "business", due_date: "2026-09-15" };
 */
export type WikRequest = NonNullable<
  operations["calculateWik"]["requestBody"]
>["content"]["application/json"];
/**
 * Answer of POST /tools/wik (spec: WikCalculation).
 *
 * @example
 * const wik: WikCalculation = await client.tools.wik({ amount_cents: 125000 });
 * console.log(wik.collection_costs_cents); // 18750
 */
export type WikCalculation = operations["calculateWik"]["responses"][200]["content"]["application/json"];
/**
 * Body of POST /tools/rol-router.
 *
 * @example
 * const body: RolRouterRequest = { woonplaats: "Utrecht", naam: "de Vries" };
 */
export type RolRouterRequest = NonNullable<
  operations["lookupRolRouter"]["requestBody"]
>["content"]["application/json"];
/**
 * Answer of POST /tools/rol-router (spec: RolRouterResult).
 *
 * @example
 * const result: RolRouterResult = await client.tools.rolRouter({ woonplaats: "Utrecht", naam: "de Vries" });
 * if (result.status === "ok") console.log(result.rechtbank);
 */
export type RolRouterResult = operations["lookupRolRouter"]["responses"][200]["content"]["application/json"];
/**
 * Answer of GET /ping.
 *
 * @example
 * const ping: PingResponse = await client.ping();
 * console.log(ping.authenticated, ping.client?.mode);
 */
export type PingResponse = operations["ping"]["responses"][200]["content"]["application/json"];
/**
 * An error body (RFC 9457 problem+json); the client turns it into an `IncassoApiError`.
 *
 * @example
 * const problem: Problem = error.problem as Problem;
 */
export type Problem = components["schemas"]["Problem"];
