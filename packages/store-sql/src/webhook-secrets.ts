import type { SqlDatabase } from "./database.js";
import { SecretKeyError, type SecretKeyring, webhookSecretContext } from "./secret-keyring.js";

/**
 * How the webhook secrets are stored: how many as given (no key), how many under each key id, and
 * which of those key ids the keyring lacks.
 *
 * @example
 * const status: WebhookSecretsStatus = { total: 3, plain: 1, byKeyId: { k1: 2 }, unknownKeyIds: [] };
 */
export interface WebhookSecretsStatus {
  total: number;
  plain: number;
  byKeyId: Record<string, number>;
  /** Key ids of stored secrets that the keyring does not hold: those secrets cannot be read. */
  unknownKeyIds: string[];
}

/**
 * Counts the stored webhook secrets by key id (decision store-secrets-at-rest). Reads no secret.
 *
 * @example
 * const status = await webhookSecretsStatus(store.database, keyring);
 * if (status.unknownKeyIds.length > 0) console.error("INCASSO_SECRET_KEY lacks", status.unknownKeyIds);
 */
export async function webhookSecretsStatus(
  db: SqlDatabase,
  keyring: SecretKeyring | undefined,
): Promise<WebhookSecretsStatus> {
  const { rows } = await db.query<{ secret_key_id: string | null; n: number | string }>(
    "SELECT secret_key_id, count(*) AS n FROM webhook_endpoints GROUP BY secret_key_id ORDER BY secret_key_id",
  );
  const status: WebhookSecretsStatus = { total: 0, plain: 0, byKeyId: {}, unknownKeyIds: [] };
  for (const row of rows) {
    const n = Number(row.n);
    status.total += n;
    if (row.secret_key_id === null) status.plain += n;
    else {
      status.byKeyId[row.secret_key_id] = n;
      if (!keyring?.keyIds.includes(row.secret_key_id)) status.unknownKeyIds.push(row.secret_key_id);
    }
  }
  return status;
}

/**
 * What {@link rotateWebhookSecrets} did.
 *
 * @example
 * const result: WebhookSecretsRotation = { keyId: "k2", rotated: 2, current: 1 };
 */
export interface WebhookSecretsRotation {
  /** The key every secret is now encrypted with. */
  keyId: string;
  /** Secrets encrypted now: stored as given or under an older key. */
  rotated: number;
  /** Secrets that already were under the current key. */
  current: number;
}

/**
 * Encrypts every webhook secret with the keyring's current key: the ones stored as given and the
 * ones under an older key id, in one transaction (all or none). Throws a SecretKeyError naming the
 * key id when a row does not open with the keyring; nothing is then changed.
 *
 * @example
 * const ring = parseSecretKeyring(`k2:${newKey},k1:${oldKey}`);
 * await rotateWebhookSecrets(store.database, ring); // { keyId: "k2", rotated: 3, current: 0 }
 */
export async function rotateWebhookSecrets(
  db: SqlDatabase,
  keyring: SecretKeyring | undefined,
): Promise<WebhookSecretsRotation> {
  if (keyring === undefined) {
    throw new SecretKeyError(
      "secret_key_missing",
      "INCASSO_SECRET_KEY is not set: there is no key to encrypt the webhook secrets with.",
    );
  }
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{
      organisation_id: string;
      secret: string;
      secret_key_id: string | null;
    }>(
      "SELECT organisation_id, secret, secret_key_id FROM webhook_endpoints ORDER BY organisation_id FOR UPDATE",
    );
    let rotated = 0;
    for (const row of rows) {
      if (row.secret_key_id === keyring.currentKeyId) continue;
      const context = webhookSecretContext(row.organisation_id);
      const plain = keyring.open({ keyId: row.secret_key_id, value: row.secret }, context);
      const sealed = keyring.seal(plain, context);
      await tx.query(
        "UPDATE webhook_endpoints SET secret = $2, secret_key_id = $3 WHERE organisation_id = $1",
        [row.organisation_id, sealed.value, sealed.keyId],
      );
      rotated += 1;
    }
    return { keyId: keyring.currentKeyId, rotated, current: rows.length - rotated };
  });
}
