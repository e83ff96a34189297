import type { BuiltInCaseSystem } from "../built-in-case-system.js";
import { type CaseStatus, isCaseStatus, isOpenStatus } from "../case-statuses.js";
import { CaseSystemError } from "../errors.js";
import { notFound, taskNotFound, taskNotOpen } from "./case-errors.js";
import * as q from "./case-queries.js";
import { type CaseSystemContext, changeOf, HANDLER, requireOwner } from "./case-writes.js";
import * as h from "./handler-queries.js";

/**
 * What a handler does to a case: move it to a status (or close it), complete or reject a task
 * with its order's control request, and add a note. Each change sends its webhook event in its
 * own transaction (decision case-system-webhook-events).
 *
 * @example
 * const { setStatus } = handlerOperations(caseSystemContext({ store }));
 * await setStatus({ caseNumber: "2026-000001", status: "In behandeling" });
 */
export function handlerOperations(
  ctx: CaseSystemContext,
): Pick<BuiltInCaseSystem, "setStatus" | "closeCase" | "completeTask" | "rejectTask" | "addNote"> {
  const { write, clock } = ctx;

  function setStatus(input: { caseNumber: string; status: CaseStatus; at?: Date }): Promise<void> {
    if (!isCaseStatus(input.status)) {
      return Promise.reject(
        new CaseSystemError("invalid_status", `Unknown case status ${String(input.status)}.`),
      );
    }
    const at = input.at ?? clock();
    return write(HANDLER, async (tx) => {
      const { rows } = await tx.query<{ status: CaseStatus }>(
        "SELECT status FROM cases WHERE case_number = $1 FOR UPDATE",
        [input.caseNumber],
      );
      const from = rows[0]?.status;
      if (from === undefined) throw notFound(input.caseNumber);
      if (from === input.status) return { result: undefined, changes: [] };
      await tx.query(
        `UPDATE cases SET status = $2, open = $3, updated_at = $4,
           treatment_started_at = CASE WHEN $2 = 'In behandeling' THEN COALESCE(treatment_started_at, $4) ELSE treatment_started_at END,
           closed_at = CASE WHEN $3 THEN NULL ELSE $4 END
         WHERE case_number = $1`,
        [input.caseNumber, input.status, isOpenStatus(input.status), at.toISOString()],
      );
      const owner = await requireOwner(tx, input.caseNumber);
      return {
        result: undefined,
        changes: [{ ...changeOf(owner, at), kind: "status_changed", from, to: input.status }],
      };
    });
  }

  // Done or rejected: the task and its order's control request move on together.
  function resolve(
    input: { caseNumber?: string; taskId: string; at?: Date },
    status: "done" | "rejected",
    resolution: string | null,
  ): Promise<void> {
    const at = input.at ?? clock();
    return write(HANDLER, async (tx) => {
      const task = await h.findTask(tx, input.taskId, true);
      if (task === undefined || (input.caseNumber !== undefined && task.caseNumber !== input.caseNumber)) {
        throw taskNotFound(input.taskId, input.caseNumber);
      }
      // Doing a done task again changes nothing (a retried command); anything else is a conflict.
      if (task.status === status && status === "done") return { result: undefined, changes: [] };
      if (task.status !== "open") throw taskNotOpen(task);
      await h.resolveTask(tx, { taskId: task.id, status, resolution, at });
      const owner =
        (task.orderId === null ? undefined : await q.orderOwner(tx, task.caseNumber, task.orderId)) ??
        (await requireOwner(tx, task.caseNumber));
      return {
        result: undefined,
        changes: [
          status === "done"
            ? { ...changeOf(owner, at), kind: "task_completed", taskId: task.id }
            : { ...changeOf(owner, at), kind: "task_rejected", taskId: task.id },
        ],
      };
    });
  }

  return {
    setStatus,

    closeCase: (input) =>
      setStatus({ caseNumber: input.caseNumber, status: "Gesloten", ...(input.at ? { at: input.at } : {}) }),

    completeTask: (input) => resolve(input, "done", input.note ?? null),

    rejectTask: (input) => resolve(input, "rejected", input.reason ?? null),

    addNote: (input) => {
      const at = input.at ?? clock();
      // Several statements, and a note sends no webhook event.
      return write({ multiStatement: true, mayEmit: false }, async (tx) => {
        const owner = await requireOwner(tx, input.caseNumber);
        const { rows } = await tx.query<{ id: string | number }>(
          "INSERT INTO case_notes (case_number, order_id, kind, text, created_at) VALUES ($1, NULL, 'handler', $2, $3) RETURNING id",
          [input.caseNumber, input.text, at.toISOString()],
        );
        const noteId = String(rows[0]?.id);
        return { result: { noteId }, changes: [{ ...changeOf(owner, at), kind: "note_added", noteId }] };
      });
    },
  };
}
