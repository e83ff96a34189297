import { z } from "zod";
import { ConfidenceSchema } from "./dataset.js";

const IsoDate = z.iso.date();

/**
 * A candidate place, for `ambiguous` (options) and `not_found` (suggestions) results.
 *
 * @example
 * RolRouterPlaceOptionSchema.parse({ woonplaats: "Hengelo (Gld)", gemeente: "Bronckhorst", gemeentecode: "GM1876", provincie: "Gelderland" });
 */
export const RolRouterPlaceOptionSchema = z
  .object({
    woonplaats: z.string().describe("BAG name of the place."),
    gemeente: z.string(),
    gemeentecode: z.string().describe("CBS municipality code, GM followed by four digits."),
    provincie: z.string(),
  })
  .meta({ id: "RolRouterPlaceOption", description: "A place that matches what was typed." });

/**
 * One rolzitting (roll session) the defendant's letter falls in, with the coming hearing dates.
 *
 * @example
 * RolRouterRoldagSchema.shape.weekdag_naam.parse("dinsdag");
 */
export const RolRouterRoldagSchema = z
  .object({
    weekdag_naam: z.enum(["maandag", "dinsdag", "woensdag", "donderdag", "vrijdag"]),
    roltijd: z
      .string()
      .regex(/^\d{2}:\d{2}$/)
      .nullable()
      .describe("Start time HH:MM; null only in an `incomplete` result where the source gives no time."),
    letters: z
      .object({ van: z.string(), tot: z.string() })
      .nullable()
      .describe("Added: the letter range of this rolzitting; null when the location has no letter split."),
    komende_roldata: z.array(
      z.object({
        datum: IsoDate,
        dagen: z.number().int().describe("Calendar days from today."),
        haalbaarheid: z.enum(["kan_niet", "krap", "ruim"]),
      }),
    ),
    vroegste_roldatum: IsoDate.nullable().describe(
      "First hearing date the summons term allows; null only beyond the known holiday calendar.",
    ),
  })
  .meta({ id: "RolRouterRoldag", description: "A rolzitting and its coming hearing dates." });

/**
 * Values of `ontbrekend`: which parts of a complete answer the data does not have. The first five
 * make the status `incomplete`; a missing address does not. `feestdagenkalender` (dates past the
 * known holiday calendar left out, or dates before it listed unchecked for equated days) makes it
 * `incomplete` only when it leaves a roldag without `vroegste_roldatum` or without any listed date.
 *
 * @example
 * MISSING_PARTS.includes("letterverdeling"); // true
 */
export const MISSING_PARTS = [
  "kantonlocatie",
  "rolzitting",
  "letterverdeling",
  "roltijd",
  "maatgevende_letter",
  "bezoekadres",
  "correspondentieadres",
  "feestdagenkalender",
] as const;

/**
 * Response of POST /tools/rol-router: the spec's RolRouterResult plus added fields (spec,
 * Versioning 2: clients tolerate unknown fields). Court fields are present when known; with
 * `ambiguous` and `not_found` they are absent. See docs/rol-router.md for each field.
 *
 * @example
 * const ok = RolRouterResultSchema.safeParse(lookupRolRouter({ woonplaats: "Assen", naam: "Jansen" }, { today: "2026-11-23" })).success; // true
 */
export const RolRouterResultSchema = z
  .object({
    object: z.literal("rol_router_result"),
    status: z.enum(["ok", "ambiguous", "not_found", "incomplete"]),
    woonplaats: z.string().describe("BAG name of the resolved place; otherwise the place as sent."),
    gemeente: z.string().optional(),
    gemeentecode: z.string().optional().describe("CBS municipality code, GM followed by four digits."),
    provincie: z.string().optional(),
    rechtbank: z.string().optional(),
    arrondissement: z.string().optional(),
    kantonlocatie: z.string().optional(),
    correspondentieadres: z
      .object({
        postbus: z.string().nullable(),
        postcode: z.string().nullable(),
        plaats: z.string().nullable(),
      })
      .optional()
      .describe("Postal address; a part is null when no source gives it."),
    bezoekadres: z.string().nullable().optional().describe("Visiting address; null when no source gives it."),
    maatgevende_letter: z
      .string()
      .regex(/^[A-Z]$/)
      .nullable()
      .describe(
        "Deciding letter of `naam`; null when the name has no word starting with a letter, or when it starts with IJ and the location files I and Y under different rolzittingen (both are listed).",
      ),
    roldagen: z.array(RolRouterRoldagSchema).optional(),
    disclaimer: z
      .string()
      .describe(
        "Two sentences in Dutch for the reader: indicative, not legal advice, check with the court before summoning. The sources of each part are in `bronnen`.",
      ),
    bronvermelding: z
      .array(z.string())
      .describe(
        "Added: the credit lines of the reference data used (CBS, Woonplaatsen in Nederland, CC BY 4.0, among them); show them with the answer.",
      ),
    betrouwbaarheid: z
      .object({
        arrondissement: ConfidenceSchema.nullable(),
        kantonlocatie: ConfidenceSchema.nullable(),
        rolzitting: ConfidenceSchema.nullable(),
      })
      .optional()
      .describe("Added: confidence of the court mapping, the kanton-location mapping and the schedule used."),
    bronnen: z
      .object({
        gemeente: z.string().describe("Source of the municipality's court and location mapping."),
        kantonlocatie: z.array(z.string()).describe("Sources of the location's addresses and schedule."),
        rolzitting: z.string().nullable().describe("Why the schedule has its confidence."),
      })
      .optional()
      .describe("Added: the sources behind this answer."),
    ontbrekend: z
      .array(z.enum(MISSING_PARTS))
      .describe("Added: parts of a complete answer that the data lacks."),
    opties: z
      .array(RolRouterPlaceOptionSchema)
      .optional()
      .describe("Added, with `ambiguous`: the matching places; resend with `gemeente` or `provincie`."),
    suggesties: z
      .array(RolRouterPlaceOptionSchema)
      .optional()
      .describe("Added, with `not_found`: close names, or the matches outside the given gemeente/provincie."),
    opmerkingen: z.array(z.string()).describe("Added: remarks in Dutch about this answer."),
    data_versie: z.string().describe("Added: version of the reference data used."),
  })
  .meta({
    id: "RolRouterResult",
    description:
      "Competent court, kanton location and hearing days for a defendant's place of residence. Indicative only.",
  });

/**
 * The result object (output of {@link RolRouterResultSchema}).
 *
 * @example
 * function show(r: RolRouterResult) { return r.status === "ok" ? r.kantonlocatie : r.opmerkingen.join(" "); }
 */
export type RolRouterResult = z.output<typeof RolRouterResultSchema>;

/**
 * One rolzitting entry of a result.
 *
 * @example
 * const d: RolRouterRoldag = { weekdag_naam: "dinsdag", roltijd: "10:00", letters: { van: "A", tot: "K" }, komende_roldata: [], vroegste_roldatum: "2026-12-08" };
 */
export type RolRouterRoldag = z.output<typeof RolRouterRoldagSchema>;

/**
 * A place option or suggestion.
 *
 * @example
 * const o: RolRouterPlaceOption = { woonplaats: "Nes", gemeente: "Ameland", gemeentecode: "GM0060", provincie: "Fryslân" };
 */
export type RolRouterPlaceOption = z.output<typeof RolRouterPlaceOptionSchema>;
