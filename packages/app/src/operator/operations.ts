import {
  type ApiKeyRecord,
  issueApiKey,
  listUdfFields,
  removeUdfField,
  revokeApiKey,
  setUdfField,
  type UdfFieldDefinition,
} from "@incasso/core";
import type { SqlStore, WebhookSecretsRotation, WebhookSecretsStatus } from "@incasso/store-sql";
import {
  directOperatorAccountOperations,
  type OperatorAccountOperations,
} from "../operators/operator-accounts.js";
import {
  directWebhookOperations,
  type WebhookOperations,
  type WebhookOperationsOptions,
} from "../webhooks/webhook-operations.js";
import { type CaseOperations, directCaseOperations } from "./case-operations.js";
import { directLetterDetailsOperations, type LetterDetailsOperations } from "./letter-details-operations.js";

/**
 * A key as the operator sees it: settings, never the secret.
 *
 * @example
 * const k: KeySummary = { id: "key_0123456789abcdef", organisation: "Acme BV", creditor_name: "Acme BV", mode: "test",
 *   visibility: "own", creditor_management: false, per_minute: 30, per_day: 500, hint: "svc_test_…WXYZ",
 *   created_at: "2026-11-21T10:00:00.000Z", revoked_at: null };
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
}

/**
 * Input of {@link OperatorOperations.createKey} (the flags of `incasso keys create`).
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
 * What the operator can do, the same whether the CLI opens the store itself or reaches a running
 * server through its operator endpoint (docs/decisions/operator-endpoint.md).
 *
 * @example
 * const { key } = await operations.createKey({ organisation: "Acme BV", mode: "test" });
 */
export interface OperatorOperations
  extends WebhookOperations,
    CaseOperations,
    OperatorAccountOperations,
    LetterDetailsOperations {
  createKey(input: CreateKeyInput): Promise<KeySummary & { key: string; organisation_created: boolean }>;
  listKeys(): Promise<KeySummary[]>;
  revokeKey(id: string): Promise<KeySummary>;
  setUdf(input: { organisation: string; name: string; type: string }): Promise<UdfFieldDefinition>;
  listUdf(organisation: string): Promise<UdfFieldDefinition[]>;
  removeUdf(input: { organisation: string; name: string }): Promise<void>;
  /** Applies pending migrations; the versions applied. */
  migrate(): Promise<number[]>;
  /** How the webhook secrets are stored, by key id (decision store-secrets-at-rest). */
  secretsStatus(): Promise<WebhookSecretsStatus & { key_id: string | null }>;
  /** Encrypts every webhook secret with the current key of INCASSO_SECRET_KEY. */
  rotateSecrets(): Promise<WebhookSecretsRotation>;
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
    creditor_name: record.creditorName,
    mode: record.mode,
    visibility: record.visibility,
    creditor_management: record.creditorManagement,
    per_minute: record.perMinute,
    per_day: record.perDay,
    hint: record.hint,
    created_at: record.createdAt.toISOString(),
    revoked_at: record.revokedAt?.toISOString() ?? null,
  };
}

/**
 * The operations on an open store. `options.webhooks` sets how ping and redeliver send (the
 * server passes its dispatcher and its private-target setting).
 *
 * @example
 * const operations = directOperations(await openStore({ dataDir: ".data" }));
 */
export function directOperations(
  store: SqlStore,
  options: { webhooks?: WebhookOperationsOptions } = {},
): OperatorOperations {
  return {
    ...directWebhookOperations(store, options.webhooks),
    ...directCaseOperations(store),
    ...directOperatorAccountOperations(store),
    ...directLetterDetailsOperations(store),
    async createKey(input) {
      const issued = await issueApiKey(store, {
        organisation: input.organisation,
        ...(input.creditor_name !== undefined ? { creditorName: input.creditor_name } : {}),
        mode: input.mode,
        ...(input.visibility !== undefined ? { visibility: input.visibility } : {}),
        ...(input.creditor_management !== undefined ? { creditorManagement: input.creditor_management } : {}),
        ...(input.per_minute !== undefined ? { perMinute: input.per_minute } : {}),
        ...(input.per_day !== undefined ? { perDay: input.per_day } : {}),
      });
      return {
        key: issued.key,
        ...keySummary(issued.record),
        organisation_created: issued.organisationCreated,
      };
    },
    listKeys: async () => (await store.apiKeys.list()).map(keySummary),
    revokeKey: async (id) => {
      const record = await revokeApiKey(store, id);
      // A server on this store in this process stops accepting the key now, not after the key
      // cache's TTL (docs/decisions/auth-key-cache.md). Imported here, so the CLI's other
      // commands do not load the HTTP kernel (issue 17, start time).
      const { forgetApiKey } = await import("@incasso/server");
      forgetApiKey(store, id);
      return keySummary(record);
    },
    setUdf: (input) => setUdfField(store, input),
    listUdf: (organisation) => listUdfFields(store, organisation),
    removeUdf: (input) => removeUdfField(store, input),
    migrate: () => store.migrate(),
    secretsStatus: async () => ({
      ...(await store.webhookSecretsStatus()),
      key_id: store.secretKeyId ?? null,
    }),
    rotateSecrets: () => store.rotateWebhookSecrets(),
  };
}
