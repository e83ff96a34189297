import type { StoreRepositories } from "@incasso/core";
import type { Executor } from "./database.js";
import { apiKeyRepository } from "./repositories/api-keys.js";
import { creditorRepository } from "./repositories/creditors.js";
import { idempotencyRepository } from "./repositories/idempotency.js";
import { orderRepository } from "./repositories/orders.js";
import { organisationRepository } from "./repositories/organisations.js";
import { outboxRepository } from "./repositories/outbox.js";
import { pendingHandlerRepository } from "./repositories/pending-handlers.js";
import { placementIntentRepository } from "./repositories/placement-intents.js";
import { rateLimitRepository } from "./repositories/rate-limits.js";
import { udfFieldRepository } from "./repositories/udf-fields.js";
import { webhookEndpointRepository } from "./repositories/webhook-endpoints.js";
import type { SecretKeyring } from "./secret-keyring.js";

/**
 * Every repository bound to one executor: the database, or the executor of one transaction. The
 * keyring (INCASSO_SECRET_KEY) seals and opens webhook secrets; without it they are stored as
 * given, and an encrypted one cannot be read.
 *
 * @example
 * await db.transaction(async (tx) => repositories(tx).creditors.create({ ... }));
 */
export function repositories(db: Executor, keyring?: SecretKeyring): StoreRepositories {
  return {
    organisations: organisationRepository(db),
    apiKeys: apiKeyRepository(db),
    creditors: creditorRepository(db),
    idempotency: idempotencyRepository(db),
    rateLimits: rateLimitRepository(db),
    udfFields: udfFieldRepository(db),
    orders: orderRepository(db),
    webhookEndpoints: webhookEndpointRepository(db, keyring),
    outbox: outboxRepository(db, keyring),
    placementIntents: placementIntentRepository(db),
    pendingHandlers: pendingHandlerRepository(db),
  };
}
