import { z } from "zod";

const cents = () => z.int().min(0);
const isoDate = () => z.iso.date();

/**
 * One sub-period of an interest calculation: one rate within one compounding year. Amounts are
 * rounded half up to cents per period and add up exactly to `interest.amount_cents`.
 *
 * @example
 * ```ts
 * import { InterestPeriodSchema } from "@incasso/wik";
 * InterestPeriodSchema.parse({
 *   from: "2024-01-01", to: "2024-01-31", days: 31, year: 1, rate_percent: 7, rate_from: "2024-01-01",
 *   rate_confidence: "high", principal_cents: 100000, amount_cents: 595, beyond_rate_table: false,
 * });
 * ```
 */
export const InterestPeriodSchema = z.object({
  from: isoDate().describe("First day counted."),
  to: isoDate().describe("Last day counted, inclusive."),
  days: z.int().min(1).describe("Days in the period."),
  year: z.int().min(1).describe("Compounding year: 1 for the first year after the due date."),
  rate_percent: z.number().min(0).describe("Annual rate of this period in percent."),
  rate_from: isoDate().describe("Date the rate took effect (the rate table row)."),
  rate_confidence: z
    .enum(["high", "medium"])
    .describe(
      "How sure the bundled table is of the rate: high when its row is corroborated by a dated public page or an official text; medium when the row rests on secondary sources only or the table records a conflict between sources for days of this period. Check a medium rate against the official publication before relying on it.",
    ),
  principal_cents: cents().describe(
    "Amount the interest runs on: principal plus interest capitalised so far.",
  ),
  amount_cents: cents().describe("Interest of this period, rounded half up to cents."),
  beyond_rate_table: z
    .boolean()
    .describe("True when the period lies after the rate table's last known date and uses its newest rate."),
});

/**
 * The `interest` object of a WikCalculation: the spec's `amount_cents`, `rate_percent`, `days`
 * and `type`, plus fields that make the result checkable (spec, Versioning 2).
 *
 * @example
 * ```ts
 * import { calculateStatutoryInterest, WikInterestSchema } from "@incasso/wik";
 * WikInterestSchema.parse(calculateStatutoryInterest({ principalCents: 1000, endDate: "2026-01-01" }));
 * ```
 */
export const WikInterestSchema = z.object({
  amount_cents: cents().describe("Statutory interest in cents."),
  rate_percent: z
    .number()
    .min(0)
    .describe(
      "Annual rate in percent. When several rates applied: the rate of the last day counted; every rate is in `periods`. Without interest days: the rate in force on `end_date` (0 before the table starts).",
    ),
  days: z
    .int()
    .min(0)
    .describe("Days counted: end_date minus due_date; 0 without a due date or when it is not in the past."),
  type: z
    .enum(["wettelijke_rente", "wettelijke_handelsrente"])
    .describe(
      "Interest basis: wettelijke_rente (art. 6:119 BW) or wettelijke_handelsrente (art. 6:119a BW).",
    ),
  due_date: isoDate()
    .nullable()
    .describe("Last day on time; interest runs from the next day. Null when absent."),
  end_date: isoDate().describe("Last day counted, inclusive (the calculation date)."),
  compounding: z
    .enum(["yearly", "none"])
    .describe("yearly: after each full year the interest is added to the principal (art. 6:119 lid 2 BW)."),
  day_count: z
    .enum(["actual/365", "actual/compounding-year"])
    .describe("actual/365: each day earns rate/365, leap years included."),
  periods: z.array(InterestPeriodSchema).describe("Breakdown: one row per rate per compounding year."),
  rate_table_last_known_date: isoDate().describe(
    "Last date for which the bundled rate table is known to hold.",
  ),
  beyond_rate_table: z
    .boolean()
    .describe("True when days after rate_table_last_known_date were counted with the newest known rate."),
});

/**
 * Response of POST /tools/wik and of `calculateWik` (spec "WikCalculation"), with the added
 * interest fields of {@link WikInterestSchema}.
 *
 * @example
 * ```ts
 * import { calculateWik, WikCalculationSchema } from "@incasso/wik";
 * WikCalculationSchema.parse(calculateWik({ amount_cents: 100_000 }, { today: "2026-11-21" }));
 * ```
 */
export const WikCalculationSchema = z
  .object({
    object: z.literal("wik_calculation"),
    debtor_type: z.enum(["consumer", "business"]),
    principal_amount_cents: z.int().min(1).describe("The principal, as sent in amount_cents."),
    collection_costs_cents: cents().describe(
      "Extrajudicial collection costs on the statutory scale (art. 2 BIK), without VAT.",
    ),
    collection_costs_vat_cents: cents().describe(
      "21% VAT on the costs; nonzero only when include_vat was true.",
    ),
    interest: WikInterestSchema,
    total_amount_cents: cents().describe("Principal plus costs plus VAT plus interest."),
    basis: z.string().describe("Indicative statement of what was computed and how; not legal advice."),
  })
  .meta({
    id: "WikCalculation",
    description:
      "Statutory collection costs (BIK scale) and statutory interest on a principal. Indicative; not legal advice; whether the costs may lawfully be charged is not checked.",
  });

/**
 * A period of the interest breakdown.
 *
 * @example
 * ```ts
 * import type { InterestPeriod } from "@incasso/wik";
 * const days = (period: InterestPeriod) => period.days;
 * ```
 */
export type InterestPeriod = z.infer<typeof InterestPeriodSchema>;

/**
 * The `interest` object of a WikCalculation.
 *
 * @example
 * ```ts
 * import type { WikInterest } from "@incasso/wik";
 * const amount = (interest: WikInterest) => interest.amount_cents;
 * ```
 */
export type WikInterest = z.infer<typeof WikInterestSchema>;

/**
 * The WikCalculation wire object.
 *
 * @example
 * ```ts
 * import type { WikCalculation } from "@incasso/wik";
 * const total = (calculation: WikCalculation) => calculation.total_amount_cents;
 * ```
 */
export type WikCalculation = z.infer<typeof WikCalculationSchema>;
