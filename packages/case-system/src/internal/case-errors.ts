import { CaseSystemError } from "../errors.js";

/**
 * `case_not_found`: no case with that number.
 *
 * @example
 * throw notFound("2026-000001"); // No case 2026-000001.
 */
export function notFound(caseNumber: string): CaseSystemError {
  return new CaseSystemError("case_not_found", `No case ${caseNumber}.`);
}

/**
 * `order_not_on_case`: the order is not on that case.
 *
 * @example
 * throw notOnCase("ord_0123456789abcdef", "2026-000001");
 */
export function notOnCase(orderId: string, caseNumber: string): CaseSystemError {
  return new CaseSystemError("order_not_on_case", `Order ${orderId} is not on case ${caseNumber}.`);
}

/**
 * `task_not_found`: no such task (on that case, when one is named).
 *
 * @example
 * throw taskNotFound("tsk_1", "2026-000001"); // No task tsk_1 on case 2026-000001.
 */
export function taskNotFound(taskId: string, caseNumber?: string): CaseSystemError {
  return new CaseSystemError(
    "task_not_found",
    caseNumber === undefined ? `No task ${taskId}.` : `No task ${taskId} on case ${caseNumber}.`,
  );
}

/**
 * `task_not_open`: the task was done or rejected already.
 *
 * @example
 * throw taskNotOpen({ id: "tsk_1", status: "done" }); // Task tsk_1 is done already.
 */
export function taskNotOpen(task: { id: string; status: string }): CaseSystemError {
  return new CaseSystemError("task_not_open", `Task ${task.id} is ${task.status} already.`);
}
