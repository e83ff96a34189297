// The Node server of @incasso/server/node, so a host that installs only @incasso/app (with a strict
// installer such as pnpm, which does not hoist) can serve `incasso.api` as this package's README shows.
export { listen } from "@incasso/server/node";
export {
  checkRetrySchedule,
  DEFAULT_RETRY_SCHEDULE_SECONDS,
  nextAttemptAt,
} from "@incasso/store-sql";
export {
  type CreateIncassoOptions,
  createIncasso,
  EMBEDDED_BODY_BUDGET_BYTES,
  type Incasso,
} from "./create-incasso.js";
export { type DatabaseTimeouts, databaseTimeouts } from "./database-timeouts.js";
export {
  closePlugins,
  type HostPlugin,
  type HostPluginContext,
  PLUGIN_MIGRATIONS_FROM,
  pluginMigrations,
  startPlugins,
} from "./host-plugins.js";
export { DEFAULT_DATA_DIR, type IncassoTarget, resolveTarget } from "./incasso-target.js";
export { LOG_LEVELS, type LogLevel, parseLogLevel } from "./logging/log-level.js";
export {
  createPinoLogger,
  type IncassoLogger,
  LOG_REDACT_PATHS,
  type PinoLoggerOptions,
} from "./logging/pino-logger.js";
export { requestLog } from "./logging/request-log.js";
export { REDACTED, scrubSecrets, scrubString } from "./logging/secret-scrubber.js";
export { workerEventLogs } from "./logging/worker-event-logs.js";
export {
  createIncassoMetrics,
  type IncassoMetrics,
  type IncassoMetricsOptions,
} from "./metrics/incasso-metrics.js";
export { type MetricsServer, startMetricsServer } from "./metrics/metrics-server.js";
export {
  type CreateKeyInput,
  directOperations,
  type KeySummary,
  keySummary,
  type OperatorOperations,
} from "./operations/operations.js";
export { OperatorError, readOperatorEndpoint, remoteOperations } from "./operations/operator-client.js";
export {
  DEFAULT_OPERATOR_ENDPOINT_LIMITS,
  OPERATOR_FILE,
  type OperatorEndpoint,
  type OperatorEndpointInfo,
  type OperatorEndpointLimits,
  startOperatorEndpoint,
} from "./operations/operator-endpoint.js";
export {
  type AnyOperation,
  defineOperation,
  type OperationCli,
  type OperationContext,
  type OperatorOperation,
} from "./operations/operator-operation.js";
export {
  dispatchWebhookOperation,
  OPERATOR_OPERATIONS,
  type OperationMethod,
  remoteWebhookOperations,
} from "./operations/operator-registry.js";
export {
  directOperatorAccountOperations,
  isOperatorAccountError,
  OperatorAccountError,
  type OperatorAccountErrorCode,
  type OperatorAccountOperations,
  type OperatorSummary,
} from "./operator-accounts/operator-accounts.js";
export {
  credentialMatches,
  generateOperatorCredential,
  hashOperatorCredential,
  operatorIdOf,
} from "./operator-accounts/operator-credential.js";
export {
  createOperatorDirectory,
  type LoginResult,
  OPERATOR_LOGIN_LOCK,
  type Operator,
  type OperatorDirectory,
  type OperatorRole,
} from "./operator-accounts/operator-directory.js";
export {
  ALLOW_PRIVATE_WEBHOOK_TARGETS_ENV,
  allowPrivateWebhookTargets,
} from "./webhooks/allow-private-targets.js";
export {
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  type DeliverWebhookInput,
  deliverWebhook,
  type WebhookAttemptResult,
  type WebhookFailureCode,
} from "./webhooks/deliver-webhook.js";
export {
  deliverySummary,
  directWebhookOperations,
  type WebhookAttemptSummary,
  type WebhookDeliverySummary,
  type WebhookEndpointSummary,
  type WebhookOperations,
  type WebhookOperationsOptions,
  type WebhookSendSummary,
} from "./webhooks/direct-webhook-operations.js";
export {
  isPrivateAddress,
  PRIVATE_ADDRESS_RANGES,
  privateAddressReason,
} from "./webhooks/private-address.js";
export {
  isWebhookTargetError,
  type LookupAll,
  resolveWebhookTarget,
  type WebhookTarget,
  WebhookTargetError,
} from "./webhooks/resolve-webhook-target.js";
export {
  createWebhookDispatcher,
  type DispatchedAttempt,
  MAX_WEBHOOK_ATTEMPTS,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
} from "./webhooks/webhook-dispatcher.js";
