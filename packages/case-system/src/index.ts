export {
  type BuiltInCaseSystem,
  type BuiltInCaseSystemOptions,
  type CaseLetter,
  type CaseListItem,
  type CaseTask,
  createBuiltInCaseSystem,
  type LetterJob,
} from "./built-in-case-system.js";
export { type CaseBalance, type CaseBalanceInput, computeCaseBalance } from "./case-balance.js";
export type { CaseChange, CaseChangeListener, CaseTransaction } from "./case-change.js";
export {
  type CostsClaim,
  type CostsLetter,
  type CostsPayment,
  caseCollectionCosts,
  costsAtLetter,
  type LetterCosts,
  paidBefore,
} from "./case-collection-costs.js";
export {
  type CaseBalanceView,
  type CaseHandler,
  type CaseLetterView,
  type CaseList,
  type CasePayment,
  type CaseSummary,
  type CaseTaskList,
  type CaseTaskView,
  type CaseView,
  createCaseHandler,
  type LetterJobList,
  type LetterJobView,
  type SentLetter,
} from "./case-handler.js";
export {
  BookPaymentRequestSchema,
  CaseBalanceViewSchema,
  CaseLetterViewSchema,
  CaseListSchema,
  CaseNumberRequestSchema,
  CasePaymentSchema,
  CaseStatusSchema,
  CaseSummarySchema,
  CaseTaskListSchema,
  CaseTaskViewSchema,
  CaseViewSchema,
  ListCasesRequestSchema,
  ListTasksRequestSchema,
  ResolveTaskRequestSchema,
  SentLetterSchema,
  SetCaseStatusRequestSchema,
  ShowCaseRequestSchema,
} from "./case-handler-schemas.js";
export { CASE_NUMBER_PATTERN, formatCaseNumber } from "./case-number.js";
export { type CaseEventKind, type CaseReporter, createCaseReporter } from "./case-reporter.js";
export { CASE_STATUSES, type CaseStatus, isCaseStatus, isOpenStatus } from "./case-statuses.js";
export {
  CASE_SYSTEM_ERROR_CODES,
  CaseSystemError,
  type CaseSystemErrorCode,
  isCaseSystemError,
} from "./errors.js";
export { formatIban, ibanProblem, normaliseIban } from "./iban.js";
export type { CaseDetails } from "./internal/case-details.js";
export {
  checkLetterDetailsUpdate,
  type LetterDetails,
  type LetterDetailsUpdate,
  readLetterDetails,
  saveLetterDetails,
} from "./letter-details.js";
export {
  LetterJobListSchema,
  LetterJobStateSchema,
  LetterJobViewSchema,
  ListLetterJobsRequestSchema,
  RetryLetterJobRequestSchema,
} from "./letter-job-schemas.js";
export {
  createLetterRunner,
  DEFAULT_LETTER_RETRY_SECONDS,
  type LetterJobResult,
  type LetterRunner,
  type LetterRunnerLogger,
  type LetterRunnerOptions,
} from "./letter-runner.js";
export { CASE_SYSTEM_MIGRATIONS } from "./migrations.js";
export { openCaseSystemStore } from "./open-case-system-store.js";
export { renderWikLetterPdf } from "./render-wik-letter.js";
export { CASE_EVENT_NAMES, caseChangeEvent, webhookEventForChange } from "./webhook-events.js";
export {
  composeWikLetter,
  type WikLetter,
  type WikLetterBlock,
  type WikLetterInput,
  type WikLetterSender,
} from "./wik-letter.js";
