import type { KeyMode, KeyVisibility } from "./api-key-format.js";
import type { ApiKeyRecord } from "./store-port.js";

/**
 * Who is calling: fixed by the API key (spec section Authentication, rule 5). Routes read it from
 * the request state; the order engine uses it for visibility, mode and the default creditor.
 *
 * @example
 * const p: Principal = { keyId: "key_0123456789abcdef", organisationId: "org_0123456789abcdef",
 *   organisationName: "Acme BV", creditorName: "Acme BV", mode: "test", visibility: "own",
 *   creditorManagement: false, rateLimits: { perMinute: 30, perDay: 500 } };
 */
export interface Principal {
  keyId: string;
  organisationId: string;
  /** The organisation's name, shown as `client.name` by GET /ping. */
  organisationName: string;
  /** Name of the linked creditor (principal), shown as `client.creditor` by GET /ping. */
  creditorName: string;
  mode: KeyMode;
  visibility: KeyVisibility;
  /** The per-key creditor-management switch, off by default (spec section Authentication, rule 6). */
  creditorManagement: boolean;
  /** This key's POST /orders limits. */
  rateLimits: { perMinute: number; perDay: number };
}

/**
 * The principal of a stored key.
 *
 * @example
 * const principal = principalOfKey(record);
 */
export function principalOfKey(key: ApiKeyRecord): Principal {
  return {
    keyId: key.id,
    organisationId: key.organisationId,
    organisationName: key.organisationName,
    creditorName: key.creditorName,
    mode: key.mode,
    visibility: key.visibility,
    creditorManagement: key.creditorManagement,
    rateLimits: { perMinute: key.perMinute, perDay: key.perDay },
  };
}
