import { z } from "zod";
import { normaliseCountryCode } from "./country-code.js";
import { addressRules, reportTo } from "./internal/cross-field-rules.js";
import { optionalText, requiredText, whenObject } from "./internal/schema-parts.js";
import { ORDER_LIMITS } from "./limits.js";

const L = ORDER_LIMITS.length;

/**
 * A debtor's address (spec Address). Field rules are in the schema; the rule that ties two fields
 * together (a Dutch postal code is checked only when the country is NL or absent) is a refinement.
 *
 * @example
 * AddressSchema.parse({ street: "Teststraat", house_number: "10", postal_code: "9999 ZZ", city: "Testdorp" });
 */
export const AddressSchema = z
  .object({
    street: requiredText(L.street).describe("Street, max 150 characters."),
    house_number: requiredText(L.house_number).describe("House number, max 10 characters."),
    house_number_suffix: optionalText(L.house_number_suffix)
      .nullable()
      .optional()
      .describe("House number suffix, max 10 characters."),
    postal_code: requiredText(L.postal_code).describe(
      "Postal code, max 12 characters. For country NL the format is four digits, space, two letters (1234 AB); " +
        "1234AB and lower-case letters are accepted and normalised.",
    ),
    city: requiredText(L.city).describe("City, max 100 characters."),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/)
      .refine((s) => !/^[A-Za-z]{2}$/.test(s) || normaliseCountryCode(s) !== null, {
        message: "is not an assigned ISO 3166-1 alpha-2 country code",
        params: { code: "invalid_country" },
      })
      .optional()
      .describe("ISO 3166-1 alpha-2 country code, exactly 2 letters; default NL."),
  })
  .superRefine((address, ctx) => reportTo(ctx, addressRules(address)), whenObject)
  .meta({ id: "Address", description: "Postal address of a debtor." });

/**
 * An address as the client sends it.
 *
 * @example
 * const a: AddressInput = { street: "Teststraat", house_number: "10", postal_code: "9999 ZZ", city: "Testdorp", country: "NL" };
 */
export type AddressInput = z.input<typeof AddressSchema>;
