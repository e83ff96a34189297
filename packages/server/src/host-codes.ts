import type { OrderHooks } from "@incasso/core";
import { ERROR_CODES } from "./error-codes.js";

/**
 * The problem codes a host's order rules refuse with (decision orders-host-hooks), as rows of the
 * code table: status 422 and when each is sent. They are listed beside the API's own codes in the
 * OpenAPI document, so a client learns them where it learns every other code.
 *
 * @throws {TypeError} code `invalid_order_hooks` when a host code is one of the API's own: the one
 *   table must say one thing per code.
 * @example
 * hostCodes({ codes: { amount_below_minimum: "Under € 25." } }, undefined);
 * // { amount_below_minimum: { status: 422, when: "Under € 25." } }
 */
export function hostCodes(
  ...hooks: (OrderHooks | readonly OrderHooks[] | undefined)[]
): Record<string, { status: number; when: string }> {
  const sets = hooks.flatMap((h): OrderHooks[] =>
    h === undefined ? [] : Array.isArray(h) ? [...h] : [h as OrderHooks],
  );
  const rows: Record<string, { status: number; when: string }> = {};
  for (const set of sets) {
    for (const [code, when] of Object.entries(set.codes ?? {})) {
      if (Object.hasOwn(ERROR_CODES, code)) {
        throw Object.assign(
          new TypeError(
            `orderHooks: code "${code}" is one of the API's own codes; choose a name of your own.`,
          ),
          { code: "invalid_order_hooks" },
        );
      }
      rows[code] = { status: 422, when };
    }
  }
  return rows;
}
