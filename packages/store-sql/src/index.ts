export {
  acquireDataDirLock,
  type DataDirLock,
  DataDirLockedError,
  type DataDirLockInfo,
  isDataDirHeld,
  isDataDirLockedError,
  LOCK_FILE,
  readDataDirLock,
} from "./data-dir-lock.js";
export type { Executor, SqlDatabase, SqlStatement } from "./database.js";
export { createLeaseLoop, type LeaseLoop, type LeaseLoopOptions } from "./lease-loop.js";
export {
  type Migration,
  mergeMigrations,
  migrate,
  pendingMigrations,
  STORE_MIGRATIONS,
} from "./migrations.js";
export { OPERATOR_MIGRATIONS } from "./migrations-operators.js";
export { ORDER_MIGRATIONS } from "./migrations-orders.js";
export { WEBHOOK_MIGRATIONS } from "./migrations-webhooks.js";
export { type OpenStoreOptions, openStore, type SqlStore } from "./open-store.js";
export {
  checkPgliteSharedBuffers,
  initPgliteDataDir,
  openPgliteDatabase,
  PGLITE_SHARED_BUFFERS_MB,
} from "./pglite-database.js";
export {
  DEFAULT_KEEPALIVE_IDLE_MS,
  DEFAULT_QUERY_TIMEOUT_MS,
  openPostgresDatabase,
  type PostgresOptions,
  type PreparedStatements,
} from "./postgres-database.js";
export { apiKeyRepository } from "./repositories/api-keys.js";
export { creditorRepository } from "./repositories/creditors.js";
export { idempotencyRepository } from "./repositories/idempotency.js";
export {
  type LoginLockRule,
  type OperatorRecord,
  type OperatorRepository,
  operatorRepository,
} from "./repositories/operators.js";
export { orderRepository } from "./repositories/orders.js";
export { organisationRepository } from "./repositories/organisations.js";
export { outboxRepository } from "./repositories/outbox.js";
export { rateLimitRepository } from "./repositories/rate-limits.js";
export { udfFieldRepository } from "./repositories/udf-fields.js";
export { webhookEndpointRepository } from "./repositories/webhook-endpoints.js";
export { repositories } from "./repositories.js";
export { checkRetrySchedule, DEFAULT_RETRY_SCHEDULE_SECONDS, nextAttemptAt } from "./retry-schedule.js";
export {
  isSecretKeyError,
  parseSecretKeyring,
  SecretKeyError,
  type SecretKeyErrorCode,
  type SecretKeyring,
  type StoredSecret,
} from "./secret-keyring.js";
export {
  rotateWebhookSecrets,
  type WebhookSecretsRotation,
  type WebhookSecretsStatus,
  webhookSecretsStatus,
} from "./webhook-secrets.js";
