import { ISO_3166_ALPHA2 } from "./internal/iso-3166-alpha2.js";

/**
 * The default of Address.country (spec Address: "default NL").
 *
 * @example
 * DEFAULT_COUNTRY; // "NL"
 */
export const DEFAULT_COUNTRY = "NL";

/**
 * Brings a country code into upper case and returns it when it is an assigned ISO 3166-1
 * alpha-2 code, otherwise null. Letters are accepted in either case (decision orders-country-code);
 * the bundled list of 249 codes and its source are in `internal/iso-3166-alpha2.ts`.
 *
 * @example
 * normaliseCountryCode("nl"); // "NL"
 * normaliseCountryCode("BE"); // "BE"
 * normaliseCountryCode("XX"); // null (format fine, not assigned)
 * normaliseCountryCode("NLD"); // null (alpha-3)
 */
export function normaliseCountryCode(value: string): string | null {
  if (!/^[A-Za-z]{2}$/.test(value)) return null;
  const upper = value.toUpperCase();
  return ISO_3166_ALPHA2.has(upper) ? upper : null;
}

/**
 * Whether `value` is an assigned ISO 3166-1 alpha-2 code, in any letter case.
 *
 * @example
 * isCountryCode("DE"); // true
 * isCountryCode("UK"); // false (reserved; the United Kingdom is GB)
 */
export function isCountryCode(value: string): boolean {
  return normaliseCountryCode(value) !== null;
}
