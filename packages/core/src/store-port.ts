import type { KeyMode, KeyVisibility } from "./api-key-format.js";
import type { Warning } from "./orders/warnings.js";
import type { Principal } from "./principal.js";
import type { OutboxRepository, WebhookEndpointRepository } from "./webhooks/outbox-port.js";

/**
 * An organisation: the account a key belongs to, with the name of its linked creditor.
 *
 * @example
 * const org: Organisation = { id: "org_0123456789abcdef", name: "Acme BV", creditorName: "Acme BV", createdAt: new Date() };
 */
export interface Organisation {
  id: string;
  name: string;
  creditorName: string;
  createdAt: Date;
}

/**
 * A stored API key: its settings, never the key itself (only its hash is kept).
 *
 * @example
 * const k: ApiKeyRecord = { id: "key_0123456789abcdef", organisationId: "org_0123456789abcdef",
 *   organisationName: "Acme BV", creditorName: "Acme BV", mode: "test", visibility: "own",
 *   creditorManagement: false, perMinute: 30, perDay: 500, hint: "svc_test_…WXYZ",
 *   createdAt: new Date(), revokedAt: null };
 */
export interface ApiKeyRecord {
  id: string;
  organisationId: string;
  organisationName: string;
  creditorName: string;
  mode: KeyMode;
  visibility: KeyVisibility;
  creditorManagement: boolean;
  perMinute: number;
  perDay: number;
  /** Prefix and last four characters, for listings. */
  hint: string;
  createdAt: Date;
  revokedAt: Date | null;
  /**
   * When the key last authenticated a request, to the minute (recorded at most once a minute per
   * key: decision keys-last-used); null when never, absent from a store that does not record it.
   */
  lastUsedAt?: Date | null;
}

/**
 * What {@link ApiKeyRepository.create} stores.
 *
 * @example
 * const input: NewApiKey = { id: newId("key"), organisationId: org.id, mode: "test", visibility: "own",
 *   creditorManagement: false, perMinute: 30, perDay: 500, hash: hashApiKey(key), hint: apiKeyHint(key), now: new Date() };
 */
export interface NewApiKey {
  id: string;
  organisationId: string;
  mode: KeyMode;
  visibility: KeyVisibility;
  creditorManagement: boolean;
  perMinute: number;
  perDay: number;
  /** SHA-256 of the key, hex. */
  hash: string;
  hint: string;
  now: Date;
}

/**
 * A creditor managed by an organisation (spec: Creditor management).
 *
 * @example
 * const c: CreditorRecord = { id: "cred_0123456789abcdef", organisationId: "org_0123456789abcdef", reference: "ACME-1", name: "Acme Holding BV", createdAt: new Date() };
 */
export interface CreditorRecord {
  id: string;
  organisationId: string;
  reference: string;
  name: string;
  createdAt: Date;
}

/**
 * The value type of a custom case field (spec: CreateOrder `udf_fields`).
 *
 * @example
 * const t: UdfFieldType = "date";
 */
export type UdfFieldType = "text" | "number" | "boolean" | "date";

/**
 * One custom case field definition of an organisation.
 *
 * @example
 * const f: UdfFieldRecord = { organisationId: "org_0123456789abcdef", name: "contract_id", type: "text", createdAt: new Date(), updatedAt: new Date() };
 */
export interface UdfFieldRecord {
  organisationId: string;
  name: string;
  type: UdfFieldType;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A response kept for an Idempotency-Key, replayed byte for byte.
 *
 * @example
 * const r: StoredResponse = { status: 201, headers: { "content-type": "application/json" }, body: "{}" };
 */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The outcome of claiming an Idempotency-Key: the caller now owns it (`claimed`, with a token that
 * completes or releases it), or an earlier request owns it (`completed` with its response, or
 * `in_progress` until its lease ends).
 *
 * @example
 * if (claim.outcome === "completed" && claim.fingerprint === fingerprint) return replay(claim.response);
 */
export type IdempotencyClaim =
  | { outcome: "claimed"; token: string }
  | { outcome: "completed"; fingerprint: string; response: StoredResponse }
  | { outcome: "in_progress"; fingerprint: string; leaseExpiresAt: Date };

/**
 * Input of {@link IdempotencyRepository.claim}.
 *
 * @example
 * const input: IdempotencyClaimInput = { scope: "org_0123456789abcdef", key: "k1", fingerprint: "ab12…", token: "t", now, leaseSeconds: 30, retentionSeconds: 86_400 };
 */
export interface IdempotencyClaimInput {
  /** Whose key space: the organisation id, so two organisations never share keys. */
  scope: string;
  key: string;
  /**
   * What the request is, compared for equality: the HTTP layer sends the SHA-256 of the request's
   * method, path and content followed by `:` and the id of the API key that sent it.
   */
  fingerprint: string;
  /** Random token identifying this claim. */
  token: string;
  now: Date;
  /** How long the claim holds without renewal; a crashed request frees the key after it. */
  leaseSeconds: number;
  /** How long the completed response is kept. */
  retentionSeconds: number;
}

/**
 * Organisations: created on first use by the operator (docs/decisions/keys-organisations.md).
 *
 * @example
 * const org = await store.organisations.ensure({ name: "Acme BV", creditorName: "Acme BV", now: new Date() });
 */
export interface OrganisationRepository {
  /**
   * The organisation with this name, created with `creditorName` when it does not exist yet.
   * `created` tells which happened.
   */
  ensure(input: { id: string; name: string; creditorName: string; now: Date }): Promise<{
    organisation: Organisation;
    created: boolean;
  }>;
  findByName(name: string): Promise<Organisation | undefined>;
  list(): Promise<Organisation[]>;
}

/**
 * API keys, looked up by hash.
 *
 * @example
 * const key = await store.apiKeys.findByHash(hashApiKey(token));
 */
export interface ApiKeyRepository {
  create(input: NewApiKey): Promise<ApiKeyRecord>;
  /** The key with this hash, revoked or not. */
  findByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  findById(id: string): Promise<ApiKeyRecord | undefined>;
  /** Every key, oldest first; optionally of one organisation. */
  list(filter?: { organisationId?: string }): Promise<ApiKeyRecord[]>;
  /** Marks a key revoked (once: a second call keeps the first time). Undefined when unknown. */
  revoke(id: string, now: Date): Promise<ApiKeyRecord | undefined>;
  /**
   * Records that the key authenticated a request at `at`, unless it was recorded less than a
   * minute before (decision keys-last-used). Optional: a store without it records no use.
   */
  markUsed?(id: string, at: Date): Promise<void>;
  count(): Promise<number>;
}

/**
 * Creditors of an organisation, unique by the client's reference.
 *
 * @example
 * const page = await store.creditors.list({ organisationId, limit: 25 });
 */
export interface CreditorRepository {
  /** Throws CoreError `creditor_exists` when the organisation already has this reference. */
  create(input: {
    id: string;
    organisationId: string;
    reference: string;
    name: string;
    now: Date;
  }): Promise<CreditorRecord>;
  /** Oldest first, keyset-paginated after the creditor id `after`; returns up to `limit` + 1 rows. */
  list(input: { organisationId: string; limit: number; after?: string }): Promise<CreditorRecord[]>;
  findById(organisationId: string, id: string): Promise<CreditorRecord | undefined>;
  findByReference(organisationId: string, reference: string): Promise<CreditorRecord | undefined>;
}

/**
 * Idempotency-Key records (spec: POST /orders rule 3).
 *
 * @example
 * const claim = await store.idempotency.claim({ scope, key, fingerprint, token, now, leaseSeconds: 30, retentionSeconds: 86_400 });
 */
export interface IdempotencyRepository {
  /**
   * Atomically claims a key, or reports who holds it. A record past its retention is taken over; so
   * is one still in progress whose lease ran out (its request crashed, or it was released), but
   * only by a claim with the same fingerprint: other content gets `in_progress` with the record's
   * fingerprint (and a lease in the past), which the caller answers as a conflict.
   */
  claim(input: IdempotencyClaimInput): Promise<IdempotencyClaim>;
  /** Stores the response of the claim `token`; false when the claim was lost (lease taken over). */
  complete(input: {
    scope: string;
    key: string;
    token: string;
    response: StoredResponse;
    now: Date;
  }): Promise<boolean>;
  /** Extends the lease of the claim `token`; false when it was lost. */
  renew(input: { scope: string; key: string; token: string; leaseExpiresAt: Date }): Promise<boolean>;
  /**
   * Ends the claim without a response (the request ended with a 5xx, kept by no one): its lease
   * ends at once and the record keeps its fingerprint, so a retry with the same content claims the
   * key again at once and other content still conflicts.
   */
  release(input: { scope: string; key: string; token: string }): Promise<void>;
  /** Deletes records past their retention; returns how many. */
  prune(now: Date): Promise<number>;
}

/**
 * One window of {@link RateLimitRepository.incrementAll}.
 *
 * @example
 * const hit: RateLimitHit = { bucket: "orders:key_1:minute:60", windowStart, expiresAt: windowEnd, limit: 30 };
 */
export interface RateLimitHit {
  bucket: string;
  windowStart: Date;
  expiresAt: Date;
  /** The window's limit; later windows are not counted once this one is over it. */
  limit: number;
}

/**
 * Fixed-window counters shared by every server instance on the same database. An implementation
 * may commit counters without waiting for them to be durable (a crash may lose a few increments,
 * which a rate limit can afford: docs/decisions/storage-rate-limit-counters.md).
 *
 * @example
 * const count = await store.rateLimits.increment("orders:key_1:60", windowStart, windowEnd);
 */
export interface RateLimitRepository {
  /** Adds one hit to the window and returns the hits counted so far, this one included. */
  increment(bucket: string, windowStart: Date, expiresAt: Date): Promise<number>;
  /**
   * Adds one hit to each window in order, in one statement (one round trip, one commit), and
   * returns the counts so far: a window is counted only when every window before it is still
   * within its `limit` after this hit, so the result is shorter when an earlier window refused
   * (a request refused by the minute limit does not count against the day). Buckets must differ.
   */
  incrementAll(hits: readonly RateLimitHit[]): Promise<number[]>;
  /** Deletes windows that ended before `now`; returns how many. */
  prune(now: Date): Promise<number>;
}

/**
 * Custom case field definitions per organisation, for the order engine to validate `udf_fields`.
 *
 * @example
 * await store.udfFields.set({ organisationId, name: "contract_id", type: "text", now: new Date() });
 */
export interface UdfFieldRepository {
  /** Creates or changes a definition. */
  set(input: {
    organisationId: string;
    name: string;
    type: UdfFieldType;
    now: Date;
  }): Promise<UdfFieldRecord>;
  /** The organisation's definitions by name. */
  list(organisationId: string): Promise<UdfFieldRecord[]>;
  /** False when there was no such definition. */
  remove(organisationId: string, name: string): Promise<boolean>;
}

/**
 * Every repository, bound to one executor: the store itself, or one transaction.
 *
 * @example
 * async function count(repos: StoreRepositories) { return repos.apiKeys.count(); }
 */
export interface StoreRepositories {
  organisations: OrganisationRepository;
  apiKeys: ApiKeyRepository;
  creditors: CreditorRepository;
  idempotency: IdempotencyRepository;
  rateLimits: RateLimitRepository;
  udfFields: UdfFieldRepository;
  /** Orders and their control requests (spec GET /orders, GET /orders/{orderId}). */
  orders: OrderRepository;
  /** Webhook endpoints per organisation (spec, Events). */
  webhookEndpoints: WebhookEndpointRepository;
  /** The transactional outbox of webhook events: enqueue on `tx` with the change that causes it. */
  outbox: OutboxRepository;
  /**
   * Live orders placed on a case whose order row is not stored yet (decision
   * orders-engine-placement-intents): what the placement reconciler undoes when the row never comes.
   */
  placementIntents: PlacementIntentRepository;
  /**
   * Orders and control requests whose host handlers have not finished yet (decision
   * orders-host-hooks): written with the row, cleared when the handlers settled, and run again by
   * the handler sweeper when a process stopped first.
   */
  pendingHandlers: PendingHandlerRepository;
}

/**
 * What the order engine writes with an order row or a control request when the host has handlers
 * for it: that they are still to run, for whom, and since when (the real clock, which the sweeper
 * compares with its own). Written in the same statement as the row, so a row never exists without
 * it and the request pays no further round trip.
 *
 * @example
 * await store.orders.insert(record, { handlersPending: { principal, since: new Date() } });
 */
export interface HandlersPendingOption {
  handlersPending?: { principal: Principal; since: Date };
}

/**
 * A stored order (`kind` `order`, `id` the order's) or control request (`kind` `action`, `id` the
 * action's) whose host handlers have not finished.
 *
 * @example
 * const run: PendingHandlerRun = { kind: "order", id: "ord_0123456789abcdef", orderId: "ord_0123456789abcdef",
 *   organisationId: "org_0123456789abcdef", principal, createdAt: new Date() };
 */
export interface PendingHandlerRun {
  kind: "order" | "action";
  id: string;
  orderId: string;
  organisationId: string;
  /** Who submitted it, as the handlers saw it the first time. */
  principal: Principal;
  createdAt: Date;
}

/**
 * The runs of {@link StoreRepositories.pendingHandlers}. A run is written with its row (see
 * {@link HandlersPendingOption}), removed once its handlers settled, and claimed by one sweeper at
 * a time when it is older than the grace period.
 *
 * @example
 * const runs = await store.pendingHandlers.claimStale(before, new Date(), 100, ["order"]);
 */
export interface PendingHandlerRepository {
  /**
   * Claims up to `limit` runs of the given kinds written before `before` and not claimed, or
   * claimed before `before` and not removed (a sweeper that stopped midway), oldest first; others'
   * claims in progress are skipped.
   */
  claimStale(
    before: Date,
    at: Date,
    limit: number,
    kinds: readonly PendingHandlerRun["kind"][],
  ): Promise<PendingHandlerRun[]>;
  /** Removes the run once its handlers settled; nothing when there is none. */
  remove(kind: PendingHandlerRun["kind"], id: string): Promise<void>;
}

/**
 * A placement intent: the engine is about to put order `orderId` on a case, and has not stored its
 * order row yet.
 *
 * @example
 * const intent: PlacementIntent = { orderId: "ord_0123456789abcdef", organisationId: "org_0123456789abcdef", createdAt: new Date() };
 */
export interface PlacementIntent {
  orderId: string;
  organisationId: string;
  createdAt: Date;
}

/**
 * The intents of {@link StoreRepositories.placementIntents}. An intent is recorded before the case
 * system is called and ended with the order row, atomically; the reconciler claims
 * one whose row never came, withdraws the placement and removes it. An ended intent cannot be
 * claimed and a claimed one cannot be ended, so a placement is never withdrawn under a stored
 * order nor an order stored over a withdrawn placement.
 *
 * @example
 * await store.placementIntents.record({ orderId, organisationId, createdAt: new Date() });
 */
export interface PlacementIntentRepository {
  /**
   * Records the intent; a repeat for the same order (a retry with its Idempotency-Key) renews its
   * time. False when the intent is claimed: its placement is being withdrawn.
   */
  record(intent: PlacementIntent): Promise<boolean>;
  /**
   * Ends the order's unclaimed intent and stores its order row, atomically (one statement or one
   * transaction); undefined, with nothing stored, when there was no unclaimed intent to end (its
   * placement is being withdrawn).
   */
  endWithOrder(order: OrderRecord, options?: HandlersPendingOption): Promise<OrderRecord | undefined>;
  /** Ends an unclaimed intent without an order row; false when there was none to end. */
  end(orderId: string): Promise<boolean>;
  /** Claims the order's unclaimed intent for withdrawal; undefined when it was ended or claimed. */
  claim(orderId: string, at: Date): Promise<PlacementIntent | undefined>;
  /**
   * Claims up to `limit` intents recorded before `before` and not ended, or claimed before `before`
   * and not removed (a reconciler that stopped midway), oldest first; others' claims in progress
   * are skipped.
   */
  claimStale(before: Date, at: Date, limit: number): Promise<PlacementIntent[]>;
  /** Removes a claimed intent once its placement is withdrawn. */
  remove(orderId: string): Promise<void>;
}

/**
 * The storage port (architecture: Ports). `@incasso/store-sql` implements it on PGlite and
 * PostgreSQL. Inside {@link IncassoStore.transaction} only the given repositories may be used:
 * touching the outer store there waits for the transaction and never returns on PGlite.
 *
 * @example
 * const creditor = await store.transaction(async (tx) => tx.creditors.create({ ... }));
 */
export interface IncassoStore extends StoreRepositories {
  /** Which engine: the embedded one or a PostgreSQL server. */
  readonly engine: "pglite" | "postgres";
  transaction<T>(fn: (tx: StoreRepositories) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * A stored order (spec Order and OrderStatus): what the API answers with, without the live case
 * status, which the case system owns. `metadata` and `udfFields` are kept exactly as sent, key order
 * included, because every response echoes them unchanged.
 *
 * @example
 * const o: OrderRecord = { id: "ord_0123456789abcdef", organisationId: "org_0123456789abcdef",
 *   keyId: "key_0123456789abcdef", mode: "live", type: "incasso", reference: "R-1",
 *   caseNumber: "2026-000001", caseNew: true, creditorId: null,
 *   debtors: [{ name: "Voorbeeld B.V.", customer_number: "K-1" }], invoiceCount: 1,
 *   totalAmountCents: 125000, metadata: {}, udfFields: {}, warnings: [], createdAt: new Date() };
 */
export interface OrderRecord {
  id: string;
  organisationId: string;
  /** The key that submitted the order; visibility `own` lists only these. */
  keyId: string;
  mode: KeyMode;
  type: "pre-incasso" | "incasso";
  reference: string | null;
  /** Null in test mode. */
  caseNumber: string | null;
  /** False when the order was added to an existing open case. */
  caseNew: boolean;
  /** The managed creditor the order was routed to; null for the organisation's own principal. */
  creditorId: string | null;
  debtors: { name: string; customer_number: string | null }[];
  invoiceCount: number;
  totalAmountCents: number;
  metadata: Record<string, string>;
  udfFields: Record<string, unknown>;
  /** The submission-time warnings, repeated by GET /orders/{orderId}. */
  warnings: Warning[];
  createdAt: Date;
}

/**
 * A control request on an order (spec OrderStatus.actions, OrderAction).
 *
 * @example
 * const a: OrderActionRecord = { id: "act_0123456789abcdef", orderId: "ord_0123456789abcdef",
 *   organisationId: "org_0123456789abcdef", action: "hold", status: "requested", reason: null,
 *   amountCents: null, paymentDate: null, createdAt: new Date() };
 */
export interface OrderActionRecord {
  id: string;
  orderId: string;
  organisationId: string;
  action: "hold" | "withdraw" | "payments";
  /** `requested` when stored; later statuses belong to the handler (spec: not shown). */
  status: string;
  reason: string | null;
  amountCents: number | null;
  paymentDate: string | null;
  createdAt: Date;
}

/**
 * Filters and position of {@link OrderRepository.list} (spec GET /orders).
 *
 * @example
 * const q: OrderListQuery = { organisationId: "org_0123456789abcdef", limit: 25 };
 */
export interface OrderListQuery {
  organisationId: string;
  /** Only this key's orders (key visibility `own`); all of the organisation's when absent. */
  keyId?: string;
  caseNumber?: string;
  reference?: string;
  /** Orders with a debtor with this customer number. */
  customerNumber?: string;
  type?: "pre-incasso" | "incasso";
  /** Keyset position: only orders strictly older than this (created_at desc, id desc). */
  after?: { createdAt: string; id: string };
  /** Page size; the repository returns up to `limit + 1` rows so the caller sees whether there is more. */
  limit: number;
}

/**
 * Orders and their control requests.
 *
 * @example
 * const page = await store.orders.list({ organisationId, limit: 25 });
 */
export interface OrderRepository {
  /**
   * Stores an order. When an order with this id exists already (a retry after a crash, decision
   * orders-engine-order-ids), nothing is written and the stored one is returned with `created` false.
   */
  insert(
    order: OrderRecord,
    options?: HandlersPendingOption,
  ): Promise<{ order: OrderRecord; created: boolean }>;
  /** The organisation's order with this id; never another organisation's. */
  findById(organisationId: string, id: string): Promise<OrderRecord | undefined>;
  /** Newest first by (created_at, id), after `query.after`; up to `limit + 1` rows. */
  list(query: OrderListQuery): Promise<OrderRecord[]>;
  /** Stores a control request; with `handlersPending`, the pending run in the same statement. */
  addAction(action: OrderActionRecord, options?: HandlersPendingOption): Promise<OrderActionRecord>;
  /** The order's control requests, newest first. */
  listActions(organisationId: string, orderId: string): Promise<OrderActionRecord[]>;
}
