import { type Executor, repositories, type SqlDatabase, type SqlStore } from "@incasso/store-sql";
import type { CaseChange, CaseChangeListener } from "../case-change.js";
import { webhookEventForChange } from "../webhook-events.js";
import { notFound } from "./case-errors.js";
import type { Owner } from "./case-queries.js";
import * as q from "./case-queries.js";

/**
 * What a write may do: run more than one statement, and send a webhook event. A single statement
 * that can send no event needs no transaction without a listener.
 *
 * @example
 * const kind: WriteKind = { multiStatement: true, mayEmit: true };
 */
export interface WriteKind {
  multiStatement: boolean;
  mayEmit: boolean;
}

/** One statement, no event: the port's attachment and task writes (idempotent on the order id). */
export const SINGLE: WriteKind = { multiStatement: false, mayEmit: false };

/** An attachment stored in parts (case-queries.ts, attachmentNeedsParts): several statements, no event. */
export const ITEM_IN_PARTS: WriteKind = { multiStatement: true, mayEmit: false };

/** A handler's change: several statements, and it may send an event. */
export const HANDLER: WriteKind = { multiStatement: true, mayEmit: true };

/**
 * Runs a write and records the changes it made: their webhook events in the outbox and the
 * listener's writes, in the write's own transaction.
 *
 * @example
 * const paymentId = await ctx.write(HANDLER, async (tx) => ({ result: "pay_1", changes: [] }));
 */
export type CaseWrite = <T>(
  kind: WriteKind,
  fn: (tx: Executor) => Promise<{ result: T; changes: CaseChange[] }>,
) => Promise<T>;

/**
 * What every part of the built-in case system works with: the database, the write funnel, the
 * clock, and whether a listener or webhook events are on (the placement's one-batch path needs
 * neither).
 *
 * @example
 * const ctx = caseSystemContext({ store });
 * await ctx.write(HANDLER, async (tx) => ({ result: undefined, changes: [] }));
 */
export interface CaseSystemContext {
  db: SqlDatabase;
  write: CaseWrite;
  clock: () => Date;
  listener: CaseChangeListener | undefined;
  events: boolean;
}

/**
 * The context of one built-in case system from its options (see `BuiltInCaseSystemOptions`).
 *
 * @example
 * const ctx = caseSystemContext({ store, webhookEvents: false });
 */
export function caseSystemContext(options: {
  store: Pick<SqlStore, "database">;
  onChange?: CaseChangeListener;
  webhookEvents?: boolean;
  now?: () => Date;
}): CaseSystemContext {
  const db = options.store.database;
  const listener = options.onChange;
  const events = options.webhookEvents !== false;

  // A write and the changes it made. A single statement that can send no event needs no
  // transaction without a listener (it is atomic by itself); otherwise the outbox row and the
  // listener's writes must commit with the change (architecture: transactional outbox).
  const write: CaseWrite = async (kind, fn) => {
    if (listener === undefined && !(events && kind.mayEmit)) {
      return kind.multiStatement
        ? db.transaction(async (tx) => (await fn(tx)).result)
        : (await fn(db)).result;
    }
    return db.transaction(async (tx) => {
      const { result, changes } = await fn(tx);
      const repos = repositories(tx);
      for (const change of changes) {
        const event = events ? webhookEventForChange(change) : undefined;
        if (event !== undefined) await repos.outbox.enqueue(event);
        if (listener !== undefined) await listener(change, { db: tx, repositories: repos });
      }
      return result;
    });
  };

  return { db, write, clock: options.now ?? (() => new Date()), listener, events };
}

/**
 * The fields every change of a case's order carries.
 *
 * @example
 * ({ ...changeOf(owner, at), kind: "note_added", noteId: "1" });
 */
export function changeOf(owner: Owner, at: Date) {
  return {
    caseNumber: owner.caseNumber,
    organisationId: owner.organisationId,
    orderId: owner.orderId,
    reference: owner.reference,
    at,
  };
}

/**
 * The owner of a case (its first order), or `case_not_found`.
 *
 * @example
 * const owner = await requireOwner(tx, "2026-000001");
 */
export async function requireOwner(tx: Executor, caseNumber: string): Promise<Owner> {
  const owner = await q.caseOwner(tx, caseNumber);
  if (owner === undefined) throw notFound(caseNumber);
  return owner;
}
