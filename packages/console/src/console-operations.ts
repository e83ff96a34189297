/**
 * The operations the console calls, declared by their shape: every change the console makes goes
 * through the same functions as the `incasso` CLI (`OperatorOperations` of `@incasso/app`: keys,
 * UDF fields, webhooks, cases, tasks, operators), so it emits the same webhook events and leaves the same
 * records (issue 19, item 3). `createIncasso()` passes its `operations` as they are; this file is
 * the one place that names them, so re-pointing the console at another registry of operations is a
 * change here only.
 *
 * @example
 * const ops: ConsoleOperations = incasso.operations; // plus addNote and readLetter of the case system
 */
export interface ConsoleOperations {
  showCase(input: { case_number: string }): Promise<ConsoleCaseView>;
  payCase(input: { case_number: string; amount_cents: number; payment_date?: string }): Promise<unknown>;
  setCaseStatus(input: { case_number: string; status: string }): Promise<unknown>;
  closeCase(input: { case_number: string }): Promise<unknown>;
  sendCaseLetter(input: { case_number: string }): Promise<{ id: string; filename: string }>;
  /** Letter jobs still to do or failed, newest first (decision case-system-wik-letter-jobs). */
  listLetterJobs(input: {
    state?: ConsoleLetterJob["state"];
    case_number?: string;
    limit?: number;
  }): Promise<{ data: ConsoleLetterJob[] }>;
  /** Makes a pending or failed letter job due now with fresh attempts; refuses a running one. */
  retryLetterJob(input: { order_id: string }): Promise<ConsoleLetterJob>;
  /** With `case_number`, a task of another case is refused with `task_not_found`. */
  completeTask(input: { task_id: string; case_number?: string; note?: string }): Promise<unknown>;
  /** With `case_number`, a task of another case is refused with `task_not_found`. */
  rejectTask(input: { task_id: string; case_number?: string; note?: string }): Promise<unknown>;
  createKey(input: {
    organisation: string;
    mode: "live" | "test";
    visibility?: "own" | "organisation";
    creditor_management?: boolean;
  }): Promise<ConsoleKey & { key: string }>;
  listKeys(): Promise<ConsoleKey[]>;
  revokeKey(id: string): Promise<ConsoleKey>;
  listUdf(organisation: string): Promise<{ name: string; type: string }[]>;
  setWebhook(input: {
    organisation: string;
    url: string;
  }): Promise<{ url: string; secret: string | null; secret_generated: boolean }>;
  listWebhooks(): Promise<{ organisation: string; url: string; secret_hint: string; updated_at: string }[]>;
  pingWebhook(input: { organisation: string }): Promise<ConsoleSendSummary>;
  listDeliveries(input: { failed?: boolean; limit?: number }): Promise<ConsoleDelivery[]>;
  listAttempts(input: { event_id: string }): Promise<ConsoleAttempt[]>;
  redeliverWebhook(input: { event_id: string }): Promise<ConsoleSendSummary>;
  /** Sets the given letter details of an organisation (null clears one); the others keep theirs. */
  setLetterDetails(input: {
    organisation: string;
    details: Partial<Record<LetterDetailField, string | null>>;
  }): Promise<unknown>;
  showLetterDetails(input: { organisation: string }): Promise<Record<LetterDetailField, string | null>>;
  /** Issues an operator; the credential is in the result this once (only its hash is stored). */
  createOperator(input: {
    name: string;
    role?: "handler" | "admin";
  }): Promise<ConsoleOperatorAccount & { credential: string }>;
  listOperators(): Promise<ConsoleOperatorAccount[]>;
  revokeOperator(input: { id: string }): Promise<ConsoleOperatorAccount>;
}

/**
 * An operator as the console lists it (the CLI's `OperatorSummary`): never the credential.
 *
 * @example
 * const o: ConsoleOperatorAccount = { id: "op_0123456789abcdef", name: "Jan de Vries", role: "handler",
 *   created_at: "2026-11-21T10:00:00.000Z", revoked_at: null, locked_until: null };
 */
export interface ConsoleOperatorAccount {
  id: string;
  name: string;
  role: "handler" | "admin";
  created_at: string;
  revoked_at: string | null;
  locked_until: string | null;
}

/**
 * The letter details of an organisation the 14-day letter prints (`incasso letter-details set`).
 *
 * @example
 * const field: LetterDetailField = "iban";
 */
export type LetterDetailField =
  | "sender_name"
  | "street"
  | "postal_code"
  | "city"
  | "iban"
  | "bic"
  | "kvk_number"
  | "phone"
  | "email";

/**
 * What the console needs of the built-in case system besides the CLI's operations: a handler's
 * note (the case system's own `addNote`) and a stored letter's bytes for the download.
 *
 * @example
 * const extras: ConsoleCaseExtras = createBuiltInCaseSystem({ store });
 */
export interface ConsoleCaseExtras {
  addNote(input: { caseNumber: string; text: string }): Promise<{ noteId: string }>;
  readLetter(input: {
    caseNumber: string;
    letterId: string;
  }): Promise<{ filename: string; bytes: Uint8Array } | undefined>;
}

/**
 * A key as the console lists it (the CLI's `KeySummary`).
 *
 * @example
 * const k: ConsoleKey = { id: "key_0123456789abcdef", organisation: "Acme BV", mode: "test", visibility: "own",
 *   creditor_management: false, hint: "svc_test_…WXYZ", created_at: "2026-11-21T10:00:00.000Z", revoked_at: null };
 */
export interface ConsoleKey {
  id: string;
  organisation: string;
  mode: "live" | "test";
  visibility: "own" | "organisation";
  creditor_management: boolean;
  hint: string;
  created_at: string;
  revoked_at: string | null;
  /** When the key last authenticated a request, to the minute; null when never (store migration 3). */
  last_used_at?: string | null;
}

/**
 * The letter job of a pre-incasso order (the CLI's `LetterJobView`): pending (due at `due_at`),
 * running (a runner holds it until `due_at`) or failed (no more attempts; retry after repairing
 * the cause).
 *
 * @example
 * const job: ConsoleLetterJob = { order_id: "ord_0123456789abcdef", case_number: "2026-000001", state: "failed",
 *   attempts: 1, due_at: null, last_error: "letter_details_missing: …", created_at: "2026-11-21T10:00:00.000Z",
 *   updated_at: "2026-11-21T10:00:01.000Z" };
 */
export interface ConsoleLetterJob {
  order_id: string;
  case_number: string;
  state: "pending" | "running" | "failed";
  attempts: number;
  due_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * An event and its delivery state (the CLI's `WebhookDeliverySummary`).
 *
 * @example
 * const d: ConsoleDelivery = { event_id: "evt_0123456789abcdef", organisation: "Acme BV", type: "ping", state: "failed",
 *   attempts: 8, created_at: "2026-11-21T10:00:00.000Z", last_status: 500, last_error: "http_status: HTTP 500" };
 */
export interface ConsoleDelivery {
  event_id: string;
  organisation: string;
  type: string;
  state: string;
  attempts: number;
  created_at: string;
  last_status: number | null;
  last_error: string | null;
}

/**
 * One delivery attempt (the CLI's `WebhookAttemptSummary`).
 *
 * @example
 * const a: ConsoleAttempt = { attempt: 1, url: "https://client.example/hook", started_at: "2026-11-21T10:00:00.000Z",
 *   outcome: "failed", status_code: 500, duration_ms: 12, error: "http_status: HTTP 500", next_attempt_at: null };
 */
export interface ConsoleAttempt {
  attempt: number;
  url: string | null;
  started_at: string;
  outcome: string | null;
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
  next_attempt_at: string | null;
}

/**
 * What ping and redeliver report.
 *
 * @example
 * const sent: ConsoleSendSummary = { event: delivery, attempt: null };
 */
export interface ConsoleSendSummary {
  event: ConsoleDelivery;
  attempt: ConsoleAttempt | null;
}

/**
 * A debtor's address as the case view gives it.
 *
 * @example
 * const a: ConsoleAddress = { street: "Kade", house_number: "1", house_number_suffix: null,
 *   postal_code: "9999 ZZ", city: "Testdorp", country: "NL" };
 */
export interface ConsoleAddress {
  street: string;
  house_number: string;
  house_number_suffix: string | null;
  postal_code: string;
  city: string;
  country: string;
}

/**
 * A case as `showCase` returns it (the case system's `CaseView`), the fields the console shows.
 *
 * @example
 * const view: ConsoleCaseView = await ops.showCase({ case_number: "2026-000001" });
 */
export interface ConsoleCaseView {
  case_number: string;
  organisation_id: string;
  creditor: { id: string | null; name: string };
  type: string;
  reference: string | null;
  title: string;
  status: string;
  open: boolean;
  created_at: string;
  closed_at: string | null;
  orders: { order_id: string; type: string; reference: string | null; added_at: string }[];
  /** Each debtor once, at its newest address, with the earlier ones (issue 31). */
  debtors: {
    order_id: string;
    type: string;
    name: string;
    customer_number: string | null;
    address: ConsoleAddress | null;
    previous_addresses?: { address: ConsoleAddress; order_id: string; set_at: string | null }[];
  }[];
  invoices: {
    order_id: string;
    invoice_number: string;
    invoice_date: string;
    due_date: string;
    amount_cents: number;
    description: string | null;
  }[];
  payments: { id: string; amount_cents: number; payment_date: string; booked_at: string }[];
  notes: { id: string; kind: string; text: string; created_at: string }[];
  tasks: {
    id: string;
    action: string;
    instructions: string;
    reason: string | null;
    amount_cents: number | null;
    status: string;
    resolution: string | null;
    created_at: string;
  }[];
  letters: {
    id: string;
    filename: string;
    letter_date: string;
    principal_cents: number;
    collection_costs_cents: number;
    sent_at: string;
  }[];
  balance: {
    as_of: string;
    principal_cents: number;
    collection_costs_cents: number;
    interest_cents: number;
    paid_cents: number;
    balance_due_cents: number;
  };
}
