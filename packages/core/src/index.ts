// Amounts in Dutch notation: pdf-guard's one formatter, the form its amount reader reads back, so a
// letter, a page and a warning write an amount alike.
export { formatEuro as formatDutchEuro } from "@incasso/pdf-guard";
export {
  API_KEY_PATTERN,
  API_KEY_RANDOM_LENGTH,
  apiKeyHint,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  type KeyMode,
  type KeyVisibility,
  keyModeOf,
} from "./api-key-format.js";
export {
  authenticateApiKey,
  type IssueApiKeyOptions,
  type IssuedApiKey,
  issueApiKey,
  MAX_KEY_RATE_LIMIT,
  requireOrganisation,
  revokeApiKey,
} from "./api-keys.js";
export { MAX_AUTHORIZATION_LENGTH, parseBearerToken } from "./bearer.js";
export { addCalendarDays, isIsoDate } from "./calendar-dates.js";
export type {
  CaseCreditor,
  CaseDebtor,
  CaseItemsInput,
  CaseOrderInput,
  CasePlacement,
  CasePlacementInput,
  CaseState,
  CaseSystem,
  CaseTaskInput,
  OpenCase,
  OpenCaseQuery,
  OrderPlacedInput,
  PlacementWithdrawalInput,
} from "./case-system-port.js";
export {
  type CreateCreditorRequest,
  CreateCreditorRequestSchema,
  type Creditor,
  type CreditorList,
  CreditorListSchema,
  CreditorSchema,
  type ListCreditorsQuery,
  ListCreditorsQuerySchema,
} from "./creditor-schemas.js";
export { createCreditor, listCreditors, toCreditor } from "./creditors.js";
export {
  formatDutchDate,
  formatDutchLongDate,
  formatDutchMoment,
  formatDutchTime,
  parseDutchDate,
} from "./dutch-dates.js";
export * from "./engine/index.js";
export { CORE_ERROR_CODES, CoreError, type CoreErrorCode, isCoreError } from "./errors.js";
export { formatFieldPath, zodIssuesToFieldErrors } from "./field-errors.js";
export { newId } from "./ids.js";
export {
  INCASSO_ERROR_BRAND,
  IncassoError,
  type IncassoErrorOptions,
  type IncassoErrorShape,
  isIncassoError,
} from "./incasso-error.js";
export type { Logger } from "./logger.js";
export {
  chooseOpenCase,
  compareOpenCases,
  inMergeScope,
  type MergeCandidate,
  OPEN_CASE_ORDER,
  type OpenCaseChoice,
  type OpenCaseOrderKey,
  openCaseQuery,
} from "./merge-rule.js";
export * from "./orders/index.js";
export { type Principal, principalOfKey } from "./principal.js";
export { DEFAULT_API_RATE_LIMIT, DEFAULT_ORDER_RATE_LIMITS } from "./rate-limit-defaults.js";
export { type SnakeCase, type SnakeView, snakeView, type WireValue } from "./snake-view.js";
export type {
  ApiKeyRecord,
  ApiKeyRepository,
  CreditorRecord,
  CreditorRepository,
  HandlersPendingOption,
  IdempotencyClaim,
  IdempotencyClaimInput,
  IdempotencyRepository,
  IncassoStore,
  NewApiKey,
  OrderActionRecord,
  OrderListQuery,
  OrderRecord,
  OrderRepository,
  Organisation,
  OrganisationRepository,
  PendingHandlerRepository,
  PendingHandlerRun,
  PlacementIntent,
  PlacementIntentRepository,
  RateLimitHit,
  RateLimitRepository,
  StoredResponse,
  StoreRepositories,
  UdfFieldRecord,
  UdfFieldRepository,
  UdfFieldType,
} from "./store-port.js";
export {
  isStoreUnavailable,
  STORE_RETRY_AFTER_SECONDS,
  StoreUnavailableError,
  storeUnavailableIn,
} from "./store-unavailable.js";
export {
  listUdfFields,
  removeUdfField,
  setUdfField,
  UDF_FIELD_NAME,
  UDF_FIELD_TYPES,
  type UdfFieldDefinition,
  UdfFieldDefinitionSchema,
} from "./udf-fields.js";
export * from "./webhooks/index.js";
