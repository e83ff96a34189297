import { z } from "zod";

/**
 * Body of POST /tools/rol-router (spec, Endpoints). Strings are trimmed; unknown fields are
 * tolerated and passed through untouched (spec, Versioning 3).
 *
 * @example
 * RolRouterRequestSchema.parse({ woonplaats: " Den Haag ", naam: "van der Berg" });
 * // { woonplaats: "Den Haag", naam: "van der Berg" }
 */
export const RolRouterRequestSchema = z
  .looseObject({
    woonplaats: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .describe("Official place name (BAG woonplaats) of the defendant's residence, not the municipality."),
    naam: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .describe(
        "Surname or company name of the defendant; infixes and legal forms are skipped for the letter.",
      ),
    betekeningsdatum: z.iso
      .date()
      .optional()
      .describe(
        "Service date (YYYY-MM-DD); the earliest hearing date is this plus the one-week summons term.",
      ),
    gemeente: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .describe("Municipality, to disambiguate the place."),
    provincie: z.string().trim().min(1).max(50).optional().describe("Province, to disambiguate the place."),
  })
  .meta({
    id: "RolRouterRequest",
    description: "Court and hearing-day lookup for a defendant's place of residence.",
  });

/**
 * The validated request (output of {@link RolRouterRequestSchema}).
 *
 * @example
 * const r: RolRouterRequest = { woonplaats: "Assen", naam: "Jansen", betekeningsdatum: "2026-12-01" };
 */
export type RolRouterRequest = z.output<typeof RolRouterRequestSchema>;

/**
 * What a caller may pass in (input of {@link RolRouterRequestSchema}).
 *
 * @example
 * const r: RolRouterRequestInput = { woonplaats: "Assen", naam: "Jansen" };
 */
export type RolRouterRequestInput = z.input<typeof RolRouterRequestSchema>;
