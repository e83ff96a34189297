export { amsterdamDate } from "./amsterdam-date.js";
export { type CalculateWikOptions, calculateWik } from "./calculate-wik.js";
export {
  type InterestPeriod,
  InterestPeriodSchema,
  type WikCalculation,
  WikCalculationSchema,
  type WikInterest,
  WikInterestSchema,
} from "./calculation-schema.js";
export {
  type CollectionCosts,
  type CollectionCostsOptions,
  calculateCollectionCosts,
} from "./collection-costs.js";
export {
  COLLECTION_COSTS_MAXIMUM_CENTS,
  COLLECTION_COSTS_MINIMUM_CENTS,
  COLLECTION_COSTS_SCALE,
  COLLECTION_COSTS_VAT_PERCENT,
  type CollectionCostsTier,
} from "./collection-costs-scale.js";
export { isWikError, WIK_ERROR_CODES, WikError, type WikErrorCode } from "./errors.js";
export {
  getRateTable,
  type InterestType,
  RATE_TABLE_LAST_KNOWN_DATE,
  type RateTableRow,
  rateInForceOn,
} from "./rate-table.js";
export { type WikRequest, type WikRequestInput, WikRequestSchema } from "./request-schema.js";
export {
  calculateStatutoryInterest,
  type DayCount,
  type StatutoryInterestInput,
} from "./statutory-interest.js";
