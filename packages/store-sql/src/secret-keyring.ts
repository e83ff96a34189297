import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * Why a secret could not be sealed or opened. Stable across releases; callers check `code`, never
 * `instanceof` (house rule).
 *
 * - `secret_key_invalid`: INCASSO_SECRET_KEY is not in the documented form.
 * - `secret_key_missing`: a row is encrypted, and the keyring lacks its key id (or there is none).
 * - `secret_undecryptable`: the key id is known but the row does not open with it (a different key
 *   under the same id, or a damaged row).
 */
export type SecretKeyErrorCode = "secret_key_invalid" | "secret_key_missing" | "secret_undecryptable";

/**
 * A problem with INCASSO_SECRET_KEY or with an encrypted row; the message says which key id and
 * what to do, and never contains key material.
 *
 * @example
 * throw new SecretKeyError("secret_key_missing", "No key with id k2 in INCASSO_SECRET_KEY.");
 */
export class SecretKeyError extends Error {
  readonly code: SecretKeyErrorCode;
  /** Brand checked by {@link isSecretKeyError}. */
  readonly isIncassoSecretKeyError = true as const;

  constructor(code: SecretKeyErrorCode, message: string) {
    super(message);
    this.name = "SecretKeyError";
    this.code = code;
  }
}

/**
 * Whether a value is a {@link SecretKeyError}, also from another copy of this package.
 *
 * @example
 * try { await store.rotateWebhookSecrets(); } catch (e) { if (isSecretKeyError(e)) console.error(e.message); }
 */
export function isSecretKeyError(value: unknown): value is SecretKeyError {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { isIncassoSecretKeyError?: unknown }).isIncassoSecretKeyError === true
  );
}

/**
 * A secret as stored: the key id (null: stored as given, before encryption was switched on) and
 * the stored text.
 *
 * @example
 * const stored: StoredSecret = { keyId: "k1", value: "3q2-7w…" };
 */
export interface StoredSecret {
  keyId: string | null;
  value: string;
}

/**
 * The keys of INCASSO_SECRET_KEY: the first seals, every one opens (decision
 * store-secrets-at-rest).
 *
 * @example
 * const ring = parseSecretKeyring(process.env.INCASSO_SECRET_KEY!);
 * const stored = ring.seal("whsec_…", "webhook_endpoints:org_1");
 * ring.open(stored, "webhook_endpoints:org_1"); // "whsec_…"
 */
export interface SecretKeyring {
  /** The id of the key that seals. */
  readonly currentKeyId: string;
  /** Every key id, the current one first. */
  readonly keyIds: readonly string[];
  /** Encrypts `plain` with the current key, bound to `context` (the row it belongs to). */
  seal(plain: string, context: string): StoredSecret;
  /** The plain secret of a stored one; a row with key id null is returned as stored. */
  open(stored: StoredSecret, context: string): string;
}

/** AES-256-GCM (NIST SP 800-38D): a 96-bit nonce, random per seal, and the 128-bit tag. */
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** The id of a key given without one: the first 8 hex digits of its SHA-256, stable and not secret. */
function fingerprint(key: Buffer): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 8);
}

function decodeKey(text: string, position: number): Buffer {
  const key = BASE64.test(text) ? Buffer.from(text, "base64") : Buffer.alloc(0);
  if (key.length !== KEY_BYTES) {
    throw new SecretKeyError(
      "secret_key_invalid",
      `INCASSO_SECRET_KEY entry ${position} is not base64 of 32 bytes (make one with: openssl rand -base64 32).`,
    );
  }
  return key;
}

/**
 * Reads INCASSO_SECRET_KEY: one key, or several separated by commas, each `BASE64` or `ID:BASE64`
 * where BASE64 is 32 random bytes (standard or URL-safe alphabet) and ID is 1 to 32 of
 * `A-Z a-z 0-9 _ -`. A key without an id is named by its fingerprint. The first entry seals new
 * secrets; all of them open stored ones, so a new key goes first and the old one stays behind it
 * until `incasso secrets rotate` has run. Throws {@link SecretKeyError} `secret_key_invalid` with
 * the entry's position (never its value).
 *
 * @example
 * parseSecretKeyring(`k2:${newKey},k1:${oldKey}`).currentKeyId; // "k2"
 */
export function parseSecretKeyring(value: string): SecretKeyring {
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (entries.length === 0) throw new SecretKeyError("secret_key_invalid", "INCASSO_SECRET_KEY is empty.");
  const keys = new Map<string, Buffer>();
  entries.forEach((entry, index) => {
    const colon = entry.indexOf(":");
    const key = decodeKey(colon === -1 ? entry : entry.slice(colon + 1), index + 1);
    const id = colon === -1 ? fingerprint(key) : entry.slice(0, colon);
    if (!KEY_ID.test(id)) {
      throw new SecretKeyError(
        "secret_key_invalid",
        `INCASSO_SECRET_KEY entry ${index + 1} has an id that is not 1 to 32 of A-Z a-z 0-9 _ -.`,
      );
    }
    if (keys.has(id)) {
      throw new SecretKeyError("secret_key_invalid", `INCASSO_SECRET_KEY names key id ${id} twice.`);
    }
    keys.set(id, key);
  });
  const keyIds = [...keys.keys()];
  const currentKeyId = keyIds[0] as string;
  const current = keys.get(currentKeyId) as Buffer;
  return {
    currentKeyId,
    keyIds,
    seal(plain, context) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv("aes-256-gcm", current, nonce, { authTagLength: TAG_BYTES });
      // The row's identity as additional data: a sealed secret copied into another organisation's
      // row does not open there.
      cipher.setAAD(Buffer.from(context, "utf8"));
      const sealed = Buffer.concat([
        nonce,
        cipher.update(plain, "utf8"),
        cipher.final(),
        cipher.getAuthTag(),
      ]);
      return { keyId: currentKeyId, value: sealed.toString("base64url") };
    },
    open(stored, context) {
      if (stored.keyId === null) return stored.value;
      const key = keys.get(stored.keyId);
      if (key === undefined) {
        throw new SecretKeyError(
          "secret_key_missing",
          `A webhook secret is encrypted with key id ${stored.keyId}, which INCASSO_SECRET_KEY does not hold (it has ${keyIds.join(", ")}).`,
        );
      }
      const sealed = Buffer.from(stored.value, "base64url");
      try {
        if (sealed.length < NONCE_BYTES + TAG_BYTES) throw new Error("too short");
        const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, NONCE_BYTES), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(Buffer.from(context, "utf8"));
        decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
        return Buffer.concat([
          decipher.update(sealed.subarray(NONCE_BYTES, sealed.length - TAG_BYTES)),
          decipher.final(),
        ]).toString("utf8");
      } catch {
        throw new SecretKeyError(
          "secret_undecryptable",
          `A webhook secret does not open with key id ${stored.keyId}: INCASSO_SECRET_KEY has another key under that id, or the row is damaged.`,
        );
      }
    },
  };
}

/**
 * What reading an encrypted row without any keyring says.
 *
 * @example
 * throw noKeyring("k1");
 */
export function noKeyring(keyId: string): SecretKeyError {
  return new SecretKeyError(
    "secret_key_missing",
    `A webhook secret is encrypted with key id ${keyId}, and INCASSO_SECRET_KEY is not set.`,
  );
}

/**
 * Opens a stored secret with the keyring, or without one when the row is stored as given.
 *
 * @example
 * openSecret(undefined, { keyId: null, value: "whsec_x" }, "webhook_endpoints:org_1"); // "whsec_x"
 */
export function openSecret(
  keyring: SecretKeyring | undefined,
  stored: StoredSecret,
  context: string,
): string {
  if (stored.keyId === null) return stored.value;
  if (keyring === undefined) throw noKeyring(stored.keyId);
  return keyring.open(stored, context);
}

/**
 * The additional data that binds a webhook secret to its organisation's row.
 *
 * @example
 * webhookSecretContext("org_1"); // "webhook_endpoints:org_1"
 */
export function webhookSecretContext(organisationId: string): string {
  return `webhook_endpoints:${organisationId}`;
}
