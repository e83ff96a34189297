import {
  apiKeyHint,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  type KeyMode,
  type KeyVisibility,
} from "./api-key-format.js";
import { CoreError } from "./errors.js";
import { newId } from "./ids.js";
import { cleanName } from "./internal/names.js";
import { type Principal, principalOfKey } from "./principal.js";
import { DEFAULT_ORDER_RATE_LIMITS } from "./rate-limit-defaults.js";
import type { ApiKeyRecord, IncassoStore, Organisation } from "./store-port.js";

/** Highest per-minute or per-day limit a key may get; beyond it a limit means nothing. */
export const MAX_KEY_RATE_LIMIT = 1_000_000;

/**
 * Options of {@link issueApiKey}.
 *
 * @example
 * const options: IssueApiKeyOptions = { organisation: "Acme BV", mode: "test" };
 */
export interface IssueApiKeyOptions {
  /** The organisation's name; it is created on first use. */
  organisation: string;
  /** Name of the linked creditor for a new organisation; default the organisation's name. */
  creditorName?: string;
  mode: KeyMode;
  /** Default `own`: a key sees only its own orders. */
  visibility?: KeyVisibility;
  /** Default false (spec section Authentication, rule 6: off by default). */
  creditorManagement?: boolean;
  /** POST /orders per minute; default 30 (spec section Limits). */
  perMinute?: number;
  /** POST /orders per day; default 500 (spec section Limits). */
  perDay?: number;
  now?: Date;
}

/**
 * What {@link issueApiKey} returns: the key, shown this once, and its stored record.
 *
 * @example
 * const { key, record } = await issueApiKey(store, { organisation: "Acme BV", mode: "test" });
 */
export interface IssuedApiKey {
  /** The secret. It is not stored and cannot be shown again. */
  key: string;
  record: ApiKeyRecord;
  /** Whether this call created the organisation. */
  organisationCreated: boolean;
}

function limit(value: number | undefined, fallback: number, name: string): number {
  const n = value ?? fallback;
  if (!Number.isInteger(n) || n < 1 || n > MAX_KEY_RATE_LIMIT) {
    throw new CoreError(
      "invalid_key_settings",
      `${name} must be an integer from 1 to ${MAX_KEY_RATE_LIMIT}.`,
    );
  }
  return n;
}

/**
 * Issues an API key for an organisation, creating the organisation (with its linked creditor name)
 * on first use. Only the key's SHA-256 hash is stored; the key is returned once.
 *
 * @example
 * const { key } = await issueApiKey(store, { organisation: "Acme BV", mode: "test", creditorManagement: true });
 * console.log(key); // svc_test_...
 */
export async function issueApiKey(store: IncassoStore, options: IssueApiKeyOptions): Promise<IssuedApiKey> {
  const now = options.now ?? new Date();
  const name = cleanName(options.organisation, "The organisation name", 200, "invalid_key_settings");
  const creditorName =
    options.creditorName === undefined
      ? undefined
      : cleanName(options.creditorName, "The creditor name", 200, "invalid_key_settings");
  if (options.mode !== "live" && options.mode !== "test") {
    throw new CoreError("invalid_key_settings", "The mode must be live or test.");
  }
  const visibility = options.visibility ?? "own";
  if (visibility !== "own" && visibility !== "organisation") {
    throw new CoreError("invalid_key_settings", "The visibility must be own or organisation.");
  }
  const perMinute = limit(options.perMinute, DEFAULT_ORDER_RATE_LIMITS.perMinute, "The per-minute limit");
  const perDay = limit(options.perDay, DEFAULT_ORDER_RATE_LIMITS.perDay, "The per-day limit");
  const key = generateApiKey(options.mode);
  return store.transaction(async (tx) => {
    const { organisation, created } = await tx.organisations.ensure({
      id: newId("org"),
      name,
      creditorName: creditorName ?? name,
      now,
    });
    if (creditorName !== undefined && organisation.creditorName !== creditorName) {
      // Silently keeping the old name would leave the operator believing the new one applies.
      throw new CoreError(
        "organisation_conflict",
        `Organisation "${name}" exists with creditor name "${organisation.creditorName}", not "${creditorName}".`,
      );
    }
    const record = await tx.apiKeys.create({
      id: newId("key"),
      organisationId: organisation.id,
      mode: options.mode,
      visibility,
      creditorManagement: options.creditorManagement ?? false,
      perMinute,
      perDay,
      hash: hashApiKey(key),
      hint: apiKeyHint(key),
      now,
    });
    return { key, record, organisationCreated: created };
  });
}

/**
 * The principal of a key, or undefined when the key is malformed, unknown or revoked (spec section
 * Authentication, rule 3: all three are one 401 `unauthorized`, so they are not told apart).
 *
 * @example
 * const principal = await authenticateApiKey(store, "svc_test_...");
 * if (!principal) throw new Error("401");
 */
export async function authenticateApiKey(store: IncassoStore, key: string): Promise<Principal | undefined> {
  if (!isWellFormedApiKey(key)) return undefined;
  const record = await store.apiKeys.findByHash(hashApiKey(key));
  if (record === undefined || record.revokedAt !== null) return undefined;
  return principalOfKey(record);
}

/**
 * Revokes a key by id. Revoking twice keeps the first time; an unknown id throws `key_not_found`.
 *
 * @example
 * const record = await revokeApiKey(store, "key_0123456789abcdef");
 */
export async function revokeApiKey(
  store: IncassoStore,
  id: string,
  now: Date = new Date(),
): Promise<ApiKeyRecord> {
  const record = await store.apiKeys.revoke(id, now);
  if (record === undefined) throw new CoreError("key_not_found", `No API key with id ${id}.`);
  return record;
}

/**
 * The organisation with this name, or `organisation_not_found`.
 *
 * @example
 * const org = await requireOrganisation(store, "Acme BV");
 */
export async function requireOrganisation(store: IncassoStore, name: string): Promise<Organisation> {
  const org = await store.organisations.findByName(name.trim());
  if (org === undefined) {
    throw new CoreError(
      "organisation_not_found",
      `No organisation "${name}". Organisations are created with their first key (incasso keys create).`,
    );
  }
  return org;
}
