import { z } from "zod";
import { AddressSchema } from "./address-schema.js";
import { normaliseCustomerNumber } from "./customer-number.js";
import { debtorRules, reportTo } from "./internal/cross-field-rules.js";
import { optionalText, whenObject } from "./internal/schema-parts.js";
import { ORDER_LIMITS } from "./limits.js";

const L = ORDER_LIMITS.length;

/**
 * The debtor types (spec Debtor.type).
 *
 * @example
 * DebtorTypeSchema.parse("individual");
 */
export const DebtorTypeSchema = z
  .enum(["business", "individual"])
  .describe("business (a company) or individual (a natural person; a consumer for the WIK rules).");

/**
 * One debtor of an order (spec Debtor). `company_name` is required for a business and `last_name`
 * for an individual; `first_name` and `middle_name` are only for an individual, and a business
 * debtor that carries one is refused (decision orders-business-debtor-names).
 *
 * @example
 * DebtorSchema.parse({
 *   type: "individual", first_name: "Jan", middle_name: "de", last_name: "Vries", customer_number: "K-1001",
 *   address: { street: "Teststraat", house_number: "10", postal_code: "9999 ZZ", city: "Testdorp" },
 * });
 */
export const DebtorSchema = z
  .object({
    type: DebtorTypeSchema,
    company_name: optionalText(L.company_name)
      .optional()
      .describe("Company name, max 200 characters; required when type is business."),
    first_name: optionalText(L.first_name)
      .nullable()
      .optional()
      .describe("First name, max 100 characters; only for an individual."),
    middle_name: optionalText(L.middle_name)
      .nullable()
      .optional()
      .describe("Name infix (tussenvoegsel) such as 'van der', max 50 characters; only for an individual."),
    last_name: optionalText(L.last_name)
      .optional()
      .describe("Last name, max 100 characters; required when type is individual."),
    customer_number: z
      .string()
      .max(L.customer_number)
      .refine((s) => normaliseCustomerNumber(s) !== null, {
        message:
          "may contain only letters, digits, dot, underscore, slash, hyphen and space, and must not be blank",
        params: { code: "invalid_format" },
      })
      .nullable()
      .optional()
      .describe(
        "Customer number, max 50 characters: letters, digits, dot, underscore, slash, hyphen, space. Strongly " +
          "recommended: an open case for the same customer number receives the invoices instead of a new case.",
      ),
    email: z.email().max(L.email).nullable().optional().describe("E-mail address."),
    phone: optionalText(L.phone).nullable().optional().describe("Phone number, max 30 characters."),
    address: AddressSchema,
  })
  .superRefine((debtor, ctx) => reportTo(ctx, debtorRules(debtor)), whenObject)
  .meta({
    id: "Debtor",
    description:
      "A debtor of the claim. Several debtors in one order are addressed jointly for the same claim.",
  });

/**
 * A debtor as the client sends it.
 *
 * @example
 * const d: DebtorInput = { type: "business", company_name: "Test B.V.", address: { street: "Teststraat", house_number: "1", postal_code: "9999 ZZ", city: "Testdorp" } };
 */
export type DebtorInput = z.input<typeof DebtorSchema>;
