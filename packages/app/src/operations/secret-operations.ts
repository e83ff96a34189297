import type { WebhookSecretsRotation, WebhookSecretsStatus } from "@incasso/store-sql";
import { defineOperation } from "./operator-operation.js";

// Webhook secrets at rest (`incasso secrets …`, decision store-secrets-at-rest). On a data
// directory held by a running server both go through its operator endpoint, so the server's own
// INCASSO_SECRET_KEY is the one used; otherwise this process's. INCASSO_SECRET_KEY has no flag: a
// key on the command line shows in the process list.

/**
 * `secrets-status`: how the webhook secrets are stored, by key id.
 *
 * @example
 * const { plain, key_id } = await operations.secretsStatus();
 */
export const secretsStatus = defineOperation({
  name: "secrets-status",
  input: () => ({}),
  positional: [],
  run: async (
    { store },
    _input: Record<string, never>,
  ): Promise<WebhookSecretsStatus & { key_id: string | null }> => ({
    ...(await store.webhookSecretsStatus()),
    key_id: store.secretKeyId ?? null,
  }),
  cli: {
    group: "secrets",
    command: "status",
    summary: "how webhook secrets are stored: unencrypted or by key id",
    flags: [],
    input: () => ({}),
    text(status) {
      const byKey = Object.entries(status.byKeyId).map(([id, n]) => `${n} under key ${id}`);
      return [
        `Webhook secrets: ${status.total} (${[`${status.plain} unencrypted`, ...byKey].join(", ")}).`,
        status.key_id === null
          ? "INCASSO_SECRET_KEY is not set: new secrets are stored unencrypted."
          : `New secrets are encrypted with key ${status.key_id}.`,
        ...(status.unknownKeyIds.length > 0
          ? [`INCASSO_SECRET_KEY lacks key ${status.unknownKeyIds.join(", ")}: those secrets cannot be read.`]
          : []),
      ].join("\n");
    },
  },
});

/**
 * `rotate-secrets`: encrypts every webhook secret with the current key of INCASSO_SECRET_KEY.
 *
 * @example
 * const { rotated } = await operations.rotateSecrets();
 */
export const rotateSecrets = defineOperation({
  name: "rotate-secrets",
  input: () => ({}),
  positional: [],
  run: ({ store }, _input: Record<string, never>): Promise<WebhookSecretsRotation> =>
    store.rotateWebhookSecrets(),
  cli: {
    group: "secrets",
    command: "rotate",
    summary: "encrypt every webhook secret with the first key of INCASSO_SECRET_KEY",
    flags: [],
    input: () => ({}),
    text: (rotation) =>
      `Encrypted ${rotation.rotated} webhook secret${rotation.rotated === 1 ? "" : "s"} with key ${rotation.keyId}; ${rotation.current} already were.`,
  },
});
