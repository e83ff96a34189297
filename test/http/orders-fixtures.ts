// Shared by the order suites (not a test file itself): fictitious debtors only (the reserved test
// postal code 9999 ZZ, place "Testdorp"), and an API wired to a built-in case system the tests can
// inspect or wrap with faults.
import { type BuiltInCaseSystem, createBuiltInCaseSystem } from "@incasso/case-system";
import type { CaseSystem } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { fixtureApi } from "@incasso/test-utils";

export type Body = Record<string, unknown> & {
  debtors: Record<string, unknown>[];
  invoices: Record<string, unknown>[];
};

export function business(
  customerNumber: string | null = "K-1001",
  name = "Voorbeeld B.V.",
): Record<string, unknown> {
  return {
    type: "business",
    company_name: name,
    customer_number: customerNumber,
    address: { street: "Teststraat", house_number: "10", postal_code: "9999zz", city: "Testdorp" },
  };
}

export function individual(customerNumber: string | null = "P-1"): Record<string, unknown> {
  return {
    type: "individual",
    first_name: "Jan",
    middle_name: "de",
    last_name: "Vries",
    customer_number: customerNumber,
    address: {
      street: "Teststraat",
      house_number: "12",
      house_number_suffix: "A",
      postal_code: "9999 ZZ",
      city: "Testdorp",
    },
  };
}

/** A valid 3-invoice pre-incasso order against one business. */
export function orderBody(overrides: Record<string, unknown> = {}): Body {
  return {
    type: "pre-incasso",
    reference: "R-2026-17",
    debtors: [business()],
    invoices: [
      { invoice_number: "F-1", invoice_date: "2026-09-01", payment_term_days: 14, amount_cents: 125000 },
      { invoice_number: "F-2", invoice_date: "2026-09-15", due_date: "2026-10-15", amount_cents: 20000 },
      { invoice_number: "F-3", invoice_date: "2026-10-01", payment_term_days: 30, amount_cents: 5050 },
    ],
    ...overrides,
  } as Body;
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
    orders: { caseSystem: options.caseSystem ?? cases, pdfIsolation: "none" },
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
