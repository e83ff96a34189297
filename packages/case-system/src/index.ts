export {
  type BuiltInCaseSystem,
  type BuiltInCaseSystemOptions,
  createBuiltInCaseSystem,
} from "./built-in-case-system.js";
export { type CaseBalance, type CaseBalanceInput, computeCaseBalance } from "./case-balance.js";
export type { CaseChange, CaseChangeListener, CaseTransaction } from "./case-change.js";
export { CASE_NUMBER_PATTERN, formatCaseNumber } from "./case-number.js";
export { CASE_STATUSES, type CaseStatus, isCaseStatus, isOpenStatus } from "./case-statuses.js";
export {
  CASE_SYSTEM_ERROR_CODES,
  CaseSystemError,
  type CaseSystemErrorCode,
  isCaseSystemError,
} from "./errors.js";
export type { CaseDetails } from "./internal/case-details.js";
