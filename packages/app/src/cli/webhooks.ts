import { isDataDirHeld, isDataDirLockedError, openStore, type SqlStore } from "@incasso/store-sql";
import { type StorageFlags, secretKeyFromEnv, storageTarget } from "../internal/cli-store.js";
import { INCASSO_MIGRATIONS } from "../internal/incasso-migrations.js";
import { directOperations, type OperatorOperations } from "../operator/operations.js";
import { readOperatorEndpoint, remoteOperations } from "../operator/operator-client.js";
import type {
  WebhookAttemptSummary,
  WebhookDeliverySummary,
  WebhookOperationsOptions,
  WebhookSendSummary,
} from "../webhooks/webhook-operations.js";
import type { FlagValues } from "./flag-spec.js";
import { positiveInt, required } from "./flag-values.js";
import { printJson as print } from "./print.js";
import { UsageError } from "./usage-error.js";

/** The flags of the webhook commands, as their flag tables give them (program.ts). */
type WebhookFlags = Partial<
  Record<"organisation" | "url" | "secret" | "limit" | "event" | "data-dir" | "database-url", string>
> &
  Partial<Record<"failed" | "json" | "allow-private-webhook-targets", boolean>>;

/**
 * Runs `fn` with the operator operations like every other command (through a running server's
 * operator endpoint, else on the store opened here), with the webhook sending settings of this
 * command for the direct case.
 */
async function withWebhookOperations<T>(
  flags: StorageFlags,
  webhooks: WebhookOperationsOptions,
  fn: (operations: OperatorOperations) => Promise<T>,
): Promise<T> {
  const target = storageTarget(flags);
  const remote = (dataDir: string) => {
    const info = readOperatorEndpoint(dataDir);
    if (info === undefined) {
      throw new Error(
        `The data directory ${dataDir} is in use by process ${isDataDirHeld(dataDir)?.pid ?? "?"}, which offers no operator endpoint.`,
      );
    }
    return fn(remoteOperations(info));
  };
  if ("dataDir" in target && isDataDirHeld(target.dataDir)) return remote(target.dataDir);
  let store: SqlStore;
  try {
    store = await openStore({
      ...target,
      lockCommand: "webhooks",
      migrations: INCASSO_MIGRATIONS,
      ...secretKeyFromEnv(),
    });
  } catch (error) {
    if ("dataDir" in target && isDataDirLockedError(error)) return remote(target.dataDir);
    throw error;
  }
  try {
    return await fn(directOperations(store, { webhooks }));
  } finally {
    await store.close();
  }
}

function attemptLine(a: WebhookAttemptSummary): string {
  const result =
    a.outcome === null
      ? "in flight"
      : a.outcome === "delivered"
        ? `delivered (HTTP ${a.status_code} in ${a.duration_ms} ms)`
        : a.outcome === "lease_expired"
          ? "lease expired: its dispatcher stopped before recording a result"
          : `failed (${a.error})`;
  const next = a.next_attempt_at ? `; next attempt at ${a.next_attempt_at}` : "";
  return `attempt ${a.attempt} at ${a.started_at} by ${a.owner} to ${a.url ?? "(no endpoint)"}: ${result}${next}`;
}

function deliveryLine(d: WebhookDeliverySummary): string {
  const last =
    d.state === "delivered"
      ? `HTTP ${d.last_status}`
      : d.state === "pending" && d.next_attempt_at
        ? `next attempt at ${d.next_attempt_at}${d.last_error ? ` (last: ${d.last_error})` : ""}`
        : (d.last_error ?? "");
  return `${d.event_id}  ${d.created_at}  ${d.organisation}  ${d.type}  ${d.state}  ${d.attempts} attempt${d.attempts === 1 ? "" : "s"}${last ? `  ${last}` : ""}`;
}

function reportSend(label: string, sent: WebhookSendSummary): void {
  if (sent.attempt === null) {
    console.log(
      `${label} ${sent.event.event_id} is queued (${sent.event.state}); a running dispatcher is delivering it.`,
    );
    return;
  }
  console.log(`${label} ${sent.event.event_id}: ${attemptLine(sent.attempt)}.`);
  // A failed attempt is retried by the dispatchers; the exit status tells scripts it did not arrive yet.
  if (sent.attempt.outcome !== "delivered") process.exitCode = 1;
}

/**
 * `incasso webhooks set|list|ping|deliveries|redeliver`.
 *
 * @example
 * await webhooksCommand("list", { "data-dir": ".data" }, []);
 */
export async function webhooksCommand(sub: string, flags: FlagValues, positionals: string[]): Promise<void> {
  const values = flags as WebhookFlags;
  const webhooks: WebhookOperationsOptions = {
    // The flag or INCASSO_ALLOW_PRIVATE_WEBHOOK_TARGETS, read with the other flags.
    allowPrivateTargets: values["allow-private-webhook-targets"] === true,
  };
  const run = <T>(fn: (ops: OperatorOperations) => Promise<T>) => withWebhookOperations(values, webhooks, fn);
  if (sub === "set") {
    const organisation = required(flags, "organisation");
    const url = required(flags, "url");
    const set = await run((ops) =>
      ops.setWebhook({
        organisation,
        url,
        ...(values.secret !== undefined ? { secret: values.secret } : {}),
      }),
    );
    if (values.json) return print(set);
    console.log(`Webhook endpoint of ${set.organisation}: ${set.url}`);
    if (set.url.startsWith("http:")) {
      console.log("  note: plain http sends the events unencrypted; use https outside local development.");
    }
    if (set.secret) {
      console.log("The signing secret is shown once; give it to the client now:");
      console.log(set.secret);
    } else console.log(`Signing with the secret given (${set.secret_hint}).`);
    return;
  }
  if (sub === "list") {
    const list = await run((ops) => ops.listWebhooks());
    if (values.json) return print(list);
    if (list.length === 0) console.log("No webhook endpoints yet. Register one with: incasso webhooks set");
    for (const e of list)
      console.log(`${e.organisation}  ${e.url}  ${e.secret_hint}  updated ${e.updated_at}`);
    return;
  }
  if (sub === "ping") {
    const organisation = required(flags, "organisation");
    const sent = await run((ops) => ops.pingWebhook({ organisation }));
    if (values.json) {
      if (sent.attempt !== null && sent.attempt.outcome !== "delivered") process.exitCode = 1;
      return print(sent);
    }
    return reportSend("Ping", sent);
  }
  if (sub === "deliveries") {
    if (values.event !== undefined) {
      const eventId = values.event;
      const attempts = await run((ops) => ops.listAttempts({ event_id: eventId }));
      if (values.json) return print(attempts);
      if (attempts.length === 0) console.log(`${eventId} has no attempts yet.`);
      for (const a of attempts) console.log(attemptLine(a));
      return;
    }
    const limit = positiveInt(flags, "limit", "a positive whole number", 9);
    const list = await run((ops) =>
      ops.listDeliveries({
        failed: values.failed,
        ...(values.organisation !== undefined ? { organisation: values.organisation } : {}),
        ...(limit ? { limit } : {}),
      }),
    );
    if (values.json) return print(list);
    if (list.length === 0) console.log(values.failed ? "No failed deliveries." : "No webhook events yet.");
    for (const d of list) console.log(deliveryLine(d));
    return;
  }
  if (sub === "redeliver") {
    const [eventId] = positionals;
    if (eventId === undefined) throw new UsageError("webhooks redeliver takes an event id");
    const sent = await run((ops) => ops.redeliverWebhook({ event_id: eventId }));
    if (values.json) {
      if (sent.attempt !== null && sent.attempt.outcome !== "delivered") process.exitCode = 1;
      return print(sent);
    }
    return reportSend("Redelivery of", sent);
  }
  throw new UsageError(
    `webhooks needs set, list, ping, deliveries or redeliver${sub ? `, not "${sub}"` : ""}`,
  );
}
