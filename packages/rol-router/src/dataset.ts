import { z } from "zod";

/**
 * How far a value can be trusted, in the words of the reference data (SOURCES.md, `confidence`
 * column): `hoog` a current regulation says so, `middel` a post-2013 regulation or the court's own
 * pages say so but a newer text may exist, `laag` derived from a superseded or indirect source.
 *
 * @example
 * const c: Confidence = "laag";
 */
export type Confidence = "hoog" | "middel" | "laag";

/** Zod schema of {@link Confidence}. @example ConfidenceSchema.parse("middel"); */
export const ConfidenceSchema = z.enum(["hoog", "middel", "laag"]);

/**
 * Weekday names as the courts write them. Rolzittingen are only held on working days.
 *
 * @example
 * const d: Weekdag = "dinsdag";
 */
export type Weekdag = "maandag" | "dinsdag" | "woensdag" | "donderdag" | "vrijdag";

/** Zod schema of {@link Weekdag}. @example WeekdagSchema.parse("vrijdag"); */
export const WeekdagSchema = z.enum(["maandag", "dinsdag", "woensdag", "donderdag", "vrijdag"]);

const LetterSchema = z.string().regex(/^[A-Z]$/, "one capital letter A-Z");

/**
 * One rolzitting (roll session) of a kanton location.
 *
 * @example
 * const s: Session = { weekday: "dinsdag", time: "10:00", letters: { from: "A", to: "K" } };
 */
export interface Session {
  weekday: Weekdag;
  /** Start time `HH:MM`; null when no source gives it (Rotterdam). */
  time: string | null;
  /** Inclusive range of deciding letters; null when the source gives no letter split. */
  letters: { from: string; to: string } | null;
}

/** Zod schema of {@link Session}. @example SessionSchema.parse({ weekday: "vrijdag", time: null, letters: null }); */
export const SessionSchema = z.object({
  weekday: WeekdagSchema,
  time: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "HH:MM")
    .nullable(),
  letters: z.object({ from: LetterSchema, to: LetterSchema }).nullable(),
});

/**
 * A kanton location (zittingsplaats) with its addresses and rolzittingen.
 *
 * @example
 * const gouda: KantonLocation = {
 *   name: "Gouda", court: "Rechtbank Den Haag", visitingAddress: "Oosthaven 25, 2801 PC Gouda",
 *   postalAddress: { postbus: "3013", postcode: "2800 CC", plaats: "Gouda" },
 *   sessions: [{ weekday: "donderdag", time: "10:00", letters: null }], splitKnown: true,
 *   scheduleConfidence: "middel", scheduleNote: "bijzonder reglement Stcrt. 2020, 3974",
 *   note: "adres uit bestuursreglement 2025", sources: ["https://zoek.officielebekendmakingen.nl/stcrt-2020-3974.html"],
 * };
 */
export interface KantonLocation {
  /** Location name, unique in the dataset (for example `Den Haag`, `'s-Hertogenbosch`). */
  name: string;
  /** The rechtbank it belongs to, exactly as in {@link Court.name}. */
  court: string;
  visitingAddress: string | null;
  postalAddress: { postbus: string | null; postcode: string | null; plaats: string | null };
  /** Empty when no schedule is known. */
  sessions: Session[];
  /**
   * Whether the sessions tell which one applies to a defendant. False when several sessions exist
   * without a letter split (Den Haag: four days, the split is not in the stored source).
   */
  splitKnown: boolean;
  /** Confidence of the schedule; null when there are no sessions. */
  scheduleConfidence: Confidence | null;
  /** Why the schedule got that confidence (source and age). */
  scheduleNote: string | null;
  /** Remarks of the source on addresses and schedule (courts.json `confidence`). */
  note: string;
  /** Where the values come from (URLs or index references). */
  sources: string[];
}

/** Zod schema of {@link KantonLocation}. @example KantonLocationSchema.safeParse({}).success === false; */
export const KantonLocationSchema = z.object({
  name: z.string().min(1),
  court: z.string().min(1),
  visitingAddress: z.string().min(1).nullable(),
  postalAddress: z.object({
    postbus: z.string().min(1).nullable(),
    postcode: z.string().min(1).nullable(),
    plaats: z.string().min(1).nullable(),
  }),
  sessions: z.array(SessionSchema),
  splitKnown: z.boolean(),
  scheduleConfidence: ConfidenceSchema.nullable(),
  scheduleNote: z.string().nullable(),
  note: z.string(),
  sources: z.array(z.string()),
});

/**
 * A municipality with its court, its kanton location (when a source gives one) and its woonplaatsen.
 *
 * @example
 * const m: Municipality = {
 *   code: "GM0513", name: "Gouda", province: "Zuid-Holland", court: "Rechtbank Den Haag",
 *   arrondissement: "Den Haag", courtConfidence: "hoog", location: "Gouda", confidence: "laag",
 *   source: "arr: WRI art. 12; kanton: 2012-gebied Gouda", places: [["Gouda", "1002"]],
 * };
 */
export interface Municipality {
  /** CBS municipality code with its `GM` prefix, for example `GM0363`. */
  code: string;
  /** CBS name, for example `'s-Gravenhage`, `Bergen (NH.)`. */
  name: string;
  province: string;
  court: string;
  arrondissement: string;
  /** Confidence of the court (arrondissement) mapping. */
  courtConfidence: Confidence;
  /** Kanton location name, or null when no source gives one. */
  location: string | null;
  /** Confidence of `location`; null exactly when `location` is null. */
  confidence: Confidence | null;
  /** Source of the court and location mapping, as the reference data states it. */
  source: string;
  /** Woonplaatsen in this municipality: [BAG name, 4-digit woonplaatscode]. */
  places: [name: string, code: string][];
}

/** Zod schema of {@link Municipality}. @example MunicipalitySchema.shape.code.parse("GM0363"); */
export const MunicipalitySchema = z.object({
  code: z.string().regex(/^GM\d{4}$/),
  name: z.string().min(1),
  province: z.string().min(1),
  court: z.string().min(1),
  arrondissement: z.string().min(1),
  courtConfidence: ConfidenceSchema,
  location: z.string().min(1).nullable(),
  confidence: ConfidenceSchema.nullable(),
  source: z.string(),
  places: z.array(z.tuple([z.string().min(1), z.string().regex(/^\d{4}$/)])),
});

/**
 * A rechtbank and its arrondissement.
 *
 * @example
 * const c: Court = { name: "Rechtbank Rotterdam", arrondissement: "Rotterdam" };
 */
export interface Court {
  name: string;
  arrondissement: string;
}

/**
 * The whole reference dataset the router works on. The package bundles one (see
 * `BUNDLED_DATASET`); hosts may pass their own of the same shape, or overrides.
 *
 * @example
 * const mine: RolRouterDataset = { ...BUNDLED_DATASET, version: "2026-01-01.own-1" };
 */
export interface RolRouterDataset {
  /** Data version: reference date of the municipal division, then a hash of the input files. */
  version: string;
  /** Reference date (YYYY-MM-DD) of the woonplaats and municipal division. */
  referenceDate: string;
  /** Credit lines that must be shown with the data (CC BY 4.0 attribution). */
  credits: string[];
  courts: Court[];
  locations: KantonLocation[];
  municipalities: Municipality[];
}

/**
 * Zod schema of {@link RolRouterDataset}: shape only. Referential checks (every location exists,
 * belongs to the municipality's court, …) are done by `validateDataset`.
 *
 * @example
 * RolRouterDatasetSchema.parse(BUNDLED_DATASET);
 */
export const RolRouterDatasetSchema = z.object({
  version: z.string().min(1),
  referenceDate: z.iso.date(),
  credits: z.array(z.string()),
  courts: z.array(z.object({ name: z.string().min(1), arrondissement: z.string().min(1) })),
  locations: z.array(KantonLocationSchema),
  municipalities: z.array(MunicipalitySchema),
});

/**
 * Per-record changes a host applies on top of a dataset, to fill gaps with its own knowledge.
 * Keys of `locations` are location names; keys of `municipalities` are `GM` codes.
 *
 * @example
 * const overrides: RolRouterOverrides = {
 *   locations: { Leiden: { sessions: [{ weekday: "woensdag", time: "10:00", letters: null }],
 *     scheduleConfidence: "hoog", scheduleNote: "checked with the registry, 2026-11" } },
 *   municipalities: { GM0503: { location: "Den Haag", confidence: "hoog", source: "own check 2026-11" } },
 * };
 */
export interface RolRouterOverrides {
  locations?: Record<string, Partial<Omit<KantonLocation, "name" | "court">>>;
  municipalities?: Record<string, { location: string | null; confidence: Confidence | null; source: string }>;
}

/** Zod schema of {@link RolRouterOverrides}. @example RolRouterOverridesSchema.parse({}); */
export const RolRouterOverridesSchema = z.object({
  locations: z
    .record(z.string(), KantonLocationSchema.omit({ name: true, court: true }).partial())
    .optional(),
  municipalities: z
    .record(
      z.string().regex(/^GM\d{4}$/),
      z.object({
        location: z.string().min(1).nullable(),
        confidence: ConfidenceSchema.nullable(),
        source: z.string(),
      }),
    )
    .optional(),
});
