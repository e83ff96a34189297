import type { Logger } from "@incasso/server";
import type { SqlStore } from "@incasso/store-sql";

/**
 * Says once, at the start, how webhook secrets are kept (decision store-secrets-at-rest): stored
 * as given without INCASSO_SECRET_KEY; rows still stored as given, or under a key id the keyring
 * lacks (whose events cannot be signed), with what to do. Never fails the start: the API works
 * without webhooks.
 *
 * @example
 * await reportSecretsAtRest(store, logger); // warn "secrets: INCASSO_SECRET_KEY is not set; …"
 */
export async function reportSecretsAtRest(store: SqlStore, logger: Logger): Promise<void> {
  if (store.secretKeyId === undefined) {
    logger.warn(
      "secrets: INCASSO_SECRET_KEY is not set; webhook signing secrets are stored unencrypted (docs/operator.md, Secrets at rest)",
    );
    return;
  }
  try {
    const status = await store.webhookSecretsStatus();
    if (status.unknownKeyIds.length > 0) {
      logger.error(
        `secrets: webhook secrets are encrypted with key id ${status.unknownKeyIds.join(", ")}, which INCASSO_SECRET_KEY does not hold; their events cannot be signed until the key is added`,
        { unknownKeyIds: status.unknownKeyIds },
      );
    }
    if (status.plain > 0) {
      logger.warn(
        `secrets: ${status.plain} webhook secret${status.plain === 1 ? " is" : "s are"} still stored unencrypted; run incasso secrets rotate`,
        { plain: status.plain },
      );
    }
  } catch (error) {
    logger.error("secrets: the webhook secrets could not be counted", { error: String(error) });
  }
}

/**
 * `secretKey` for openStore when one is set (an empty variable counts as none).
 *
 * @example
 * await openStore({ dataDir: ".data", ...secretKeyOption(process.env.INCASSO_SECRET_KEY) });
 */
export function secretKeyOption(value: string | undefined): { secretKey?: string } {
  return value === undefined || value.trim() === "" ? {} : { secretKey: value };
}
