export {
  CALENDAR_KNOWN_RANGE,
  type ClosureDay,
  closureDays,
  easterSunday,
  isCourtClosed,
} from "./court-calendar.js";
export { BUNDLED_DATASET } from "./data/bundle.generated.js";
export {
  type Confidence,
  ConfidenceSchema,
  type Court,
  type KantonLocation,
  KantonLocationSchema,
  type Municipality,
  MunicipalitySchema,
  type RolRouterDataset,
  RolRouterDatasetSchema,
  type RolRouterOverrides,
  RolRouterOverridesSchema,
  type Session,
  SessionSchema,
  type Weekdag,
  WeekdagSchema,
} from "./dataset.js";
export { applyOverrides, validateDataset } from "./dataset-tools.js";
export {
  isRolRouterError,
  RolRouterError,
  type RolRouterErrorCode,
  type RolRouterFieldError,
} from "./errors.js";
export { assessHaalbaarheid } from "./haalbaarheid.js";
export {
  createRolRouter,
  lookupRolRouter,
  type RolRouter,
  type RolRouterOptions,
} from "./lookup.js";
export {
  analyseName,
  deriveMaatgevendeLetter,
  deriveMaatgevendeLetterForDefendants,
  type NameAnalysis,
} from "./maatgevende-letter.js";
export { normalisePlaceName } from "./normalise-place-name.js";
export {
  type RolRouterRequest,
  type RolRouterRequestInput,
  RolRouterRequestSchema,
} from "./request-schema.js";
export {
  MISSING_PARTS,
  type RolRouterPlaceOption,
  RolRouterPlaceOptionSchema,
  type RolRouterResult,
  RolRouterResultSchema,
  type RolRouterRoldag,
  RolRouterRoldagSchema,
} from "./result-schema.js";
export {
  DEFAULT_SCHEDULING,
  type Haalbaarheid,
  type KomendeRoldatum,
  type SchedulingOptions,
  SUMMONS_OFFSET_DAYS,
} from "./scheduling-options.js";
