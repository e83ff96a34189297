// Shared by the order suites (not a test file itself): fictitious debtors only (the reserved test
// postal code 9999 ZZ, place "Testdorp"), and an API wired to a built-in case system the tests can
// inspect or wrap with faults.
import { type BuiltInCaseSystem, createBuiltInCaseSystem } from "@incasso/case-system";
import type { CaseSystem } from "@incasso/core";
import {
  EXAMPLE_BUSINESS_DEBTOR,
  EXAMPLE_INDIVIDUAL_DEBTOR,
  EXAMPLE_ORDER_REQUEST,
} from "@incasso/server/internal";
import type { SqlStore } from "@incasso/store-sql";
import { fixtureApi } from "@incasso/test-utils";

export type Body = Record<string, unknown> & {
  debtors: Record<string, unknown>[];
  invoices: Record<string, unknown>[];
};

// The order bodies are the OpenAPI document's examples, so what the suites submit and what the
// document shows are one thing (decision server-openapi-examples).
export function business(
  customerNumber: string | null = EXAMPLE_BUSINESS_DEBTOR.customer_number,
  name: string = EXAMPLE_BUSINESS_DEBTOR.company_name,
): Record<string, unknown> {
  return { ...structuredClone(EXAMPLE_BUSINESS_DEBTOR), company_name: name, customer_number: customerNumber };
}

export function individual(
  customerNumber: string | null = EXAMPLE_INDIVIDUAL_DEBTOR.customer_number,
): Record<string, unknown> {
  return { ...structuredClone(EXAMPLE_INDIVIDUAL_DEBTOR), customer_number: customerNumber };
}

/** A valid 3-invoice pre-incasso order against one business. */
export function orderBody(overrides: Record<string, unknown> = {}): Body {
  return {
    ...structuredClone(EXAMPLE_ORDER_REQUEST),
    debtors: [business()],
    ...overrides,
  } as unknown as Body;
}

export const json = (key: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

export const bearer = (key: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { authorization: `Bearer ${key}`, ...((init.headers as Record<string, string>) ?? {}) },
});

export function rateHeaders(res: Response): (string | null)[] {
  return [
    res.headers.get("ratelimit-limit"),
    res.headers.get("ratelimit-remaining"),
    res.headers.get("ratelimit-reset"),
  ];
}

/** The fixture API with the order endpoints on `caseSystem` (default: a built-in one on `store`). */
export function ordersApi(
  store: SqlStore,
  options: { caseSystem?: CaseSystem; now?: () => Date } = {},
): { api: ReturnType<typeof fixtureApi>; cases: BuiltInCaseSystem } {
  const cases = createBuiltInCaseSystem({ store });
  const api = fixtureApi({
    store,
    orders: { caseSystem: options.caseSystem ?? cases },
    // PDFs on the calling thread: these suites are about orders, not about the engine's bounds.
    pdfEngine: undefined,
    logger: { info() {}, warn() {}, error() {} },
    ...(options.now ? { now: options.now } : {}),
  });
  return { api, cases };
}

/** Rows of a table, to prove what is (not) stored. */
export async function count(store: SqlStore, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await store.database.query<{ n: string | number }>(sql, params);
  return Number(rows[0]?.n ?? 0);
}
