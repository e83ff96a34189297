import { type ApiKeyRecord, snakeView } from "@incasso/core";

/**
 * A key as the operator sees it: settings, never the secret.
 *
 * @example
 * const k: KeySummary = { id: "key_0123456789abcdef", organisation: "Acme BV", creditor_name: "Acme BV", mode: "test",
 *   visibility: "own", creditor_management: false, per_minute: 30, per_day: 500, hint: "svc_test_…WXYZ",
 *   created_at: "2026-11-21T10:00:00.000Z", revoked_at: null, last_used_at: null };
 */
export interface KeySummary {
  id: string;
  organisation: string;
  creditor_name: string;
  mode: "live" | "test";
  visibility: "own" | "organisation";
  creditor_management: boolean;
  per_minute: number;
  per_day: number;
  hint: string;
  created_at: string;
  revoked_at: string | null;
  /** When the key last authenticated a request, to the minute; null when never (decision keys-last-used). */
  last_used_at: string | null;
}

/**
 * Input of `createKey` (the flags of `incasso keys create`).
 *
 * @example
 * const input: CreateKeyInput = { organisation: "Acme BV", mode: "test", creditor_management: true };
 */
export interface CreateKeyInput {
  organisation: string;
  creditor_name?: string;
  mode: "live" | "test";
  visibility?: "own" | "organisation";
  creditor_management?: boolean;
  per_minute?: number;
  per_day?: number;
}

/**
 * A key record as a {@link KeySummary}.
 *
 * @example
 * const summary = keySummary(record);
 */
export function keySummary(record: ApiKeyRecord): KeySummary {
  return {
    id: record.id,
    organisation: record.organisationName,
    ...snakeView(record, [
      "creditorName",
      "mode",
      "visibility",
      "creditorManagement",
      "perMinute",
      "perDay",
      "hint",
      "createdAt",
      "revokedAt",
    ]),
    last_used_at: record.lastUsedAt ? record.lastUsedAt.toISOString() : null,
  };
}
