export {
  deliveryMain,
  keysMain,
  LETTER_DETAIL_LABELS,
  NEW_ORGANISATION,
  organisationsMain,
  udfMain,
  webhooksMain,
} from "./admin-pages.js";
export { type AttentionInput, attentionMain } from "./attention-page.js";
export { CONSOLE_CASE_STATUSES, caseListMain } from "./case-list-page.js";
export { type CasePageInput, caseMain, eventStateLabel } from "./case-page.js";
export {
  letterJobErrorText,
  letterJobStateLabel,
  taskActionLabel,
  webhookFailure,
} from "./console-labels.js";
export type {
  ConsoleAttempt,
  ConsoleCaseExtras,
  ConsoleCaseView,
  ConsoleDelivery,
  ConsoleKey,
  ConsoleLetterJob,
  ConsoleOperations,
  ConsoleOperatorAccount,
  ConsoleSendSummary,
  LetterDetailField,
} from "./console-operations.js";
export {
  type ConsoleEnvironment,
  type ConsoleOptions,
  type ConsoleRequest,
  type ConsoleRoute,
  consolePlugin,
} from "./console-plugin.js";
export {
  type AuditEntry,
  type AuditRow,
  type CaseEventRow,
  type CaseListQuery,
  type CaseListRow,
  type ConsoleDatabase,
  caseAudit,
  caseEvents,
  findEvent,
  listCases,
  listOrganisations,
  type OpenTaskRow,
  type OrderWarningRow,
  type OrganisationRow,
  openTasks,
  orderWarnings,
  prefixRange,
  recordAudit,
} from "./console-queries.js";
export { type ConsoleSection, mayUse } from "./console-roles.js";
export {
  formatDate,
  formatEuro,
  formatMoment,
  formatTime,
  parseDutchDate,
  parseEuro,
} from "./dutch-format.js";
export { CONSOLE_MIGRATIONS, type ConsoleMigration } from "./migrations.js";
export type { LoginResult, Operator, OperatorDirectory, OperatorRole } from "./operator-directory.js";
export { operatorsMain } from "./operators-page.js";
export {
  type ConsoleSession,
  checkCsrfToken,
  csrfToken,
  DEFAULT_SESSION_LIMITS,
  newSession,
  openSession,
  readCookie,
  type SessionLimits,
  sealSession,
  setCookieHeader,
} from "./session-cookie.js";
export { type ConsoleSessionStore, sessionId, sqlSessionStore } from "./session-store.js";
