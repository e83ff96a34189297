import type { CaseTaskList, CaseTaskView } from "@incasso/case-system";
import { one, taskLine } from "../cli/case-text.js";
import { flag, LIMIT_FLAG, ORGANISATION_FLAG } from "../cli/common-flags.js";
import { positiveInt, text } from "../cli/flag-values.js";
import { UsageError } from "../cli/usage-error.js";
import { byOrganisationId } from "./case-operations.js";
import { defineOperation, type OperationCli } from "./operator-operation.js";

// The tasks control requests placed on cases (`incasso tasks …`), on the case handler of the
// built-in case system.

type TaskStatus = "open" | "done" | "rejected";
// With case_number the task must be on that case, else task_not_found (the console resolves a task
// under its case's URL, issue 28 item 5).
type ResolveInput = { task_id: string; case_number?: string; note?: string };

/**
 * `list-tasks`: tasks oldest first.
 *
 * @example
 * const open = await operations.listTasks({ status: "open" });
 */
export const listTasks = defineOperation({
  name: "list-tasks",
  fields: { status: "string?", case_number: "string?", organisation: "string?", limit: "number?" },
  run: async (
    context,
    input: { status?: TaskStatus; case_number?: string; organisation?: string; limit?: number },
  ): Promise<CaseTaskList> => context.cases.listTasks(await byOrganisationId(context, input)),
  cli: {
    group: "tasks",
    command: "list",
    summary: "tasks from control requests, oldest first",
    flags: [
      flag("status", "open, done, rejected or all; default open", "STATUS"),
      flag("case", "the tasks of one case", "CASE"),
      ORGANISATION_FLAG,
      LIMIT_FLAG,
    ],
    input(values) {
      const status = text(values, "status") ?? "open";
      if (!["open", "done", "rejected", "all"].includes(status)) {
        throw new UsageError(`--status must be open, done, rejected or all, not ${status}`);
      }
      const limit = positiveInt(values, "limit");
      const caseNumber = text(values, "case");
      const organisation = text(values, "organisation");
      return {
        ...(status === "all" ? {} : { status: status as TaskStatus }),
        ...(caseNumber !== undefined ? { case_number: caseNumber } : {}),
        ...(organisation !== undefined ? { organisation } : {}),
        ...(limit ? { limit } : {}),
      };
    },
    text: (list, input) =>
      list.data.length === 0
        ? input.status === undefined
          ? "No tasks."
          : `No ${input.status} tasks.`
        : list.data.map(taskLine).join("\n"),
  },
});

/** `tasks done` and `tasks reject`: one task id, a note. */
const resolveCli = (
  command: "done" | "reject",
  summary: string,
  flags: OperationCli<ResolveInput, CaseTaskView>["flags"],
): OperationCli<ResolveInput, CaseTaskView> => ({
  group: "tasks",
  command,
  summary,
  args: ["<id>"],
  flags,
  input(values, positionals) {
    const task_id = one(positionals, "task id", `tasks ${command}`);
    const note = command === "done" ? text(values, "note") : (text(values, "reason") ?? text(values, "note"));
    return { task_id, ...(note !== undefined ? { note } : {}) };
  },
  text: (task) =>
    `${task.id} (${task.action} on ${task.case_number}) is ${task.status}; the order's action shows ${task.status}.`,
});

/**
 * `complete-task`: marks a task done; its control request shows `done` (sends `case.updated`).
 *
 * @example
 * await operations.completeTask({ task_id: "act_0123456789abcdef" });
 */
export const completeTask = defineOperation({
  name: "complete-task",
  fields: { task_id: "string", note: "string?" },
  run: (context, input: ResolveInput): Promise<CaseTaskView> => context.cases.completeTask(input),
  cli: resolveCli("done", "resolve a task as done; the order's action shows done", [
    flag("note", "a note on the task", "TEXT"),
  ]),
});

/**
 * `reject-task`: rejects a task with a note; its control request shows `rejected`.
 *
 * @example
 * await operations.rejectTask({ task_id: "act_0123456789abcdef", note: "no proof of payment" });
 */
export const rejectTask = defineOperation({
  name: "reject-task",
  fields: { task_id: "string", note: "string?" },
  run: (context, input: ResolveInput): Promise<CaseTaskView> => context.cases.rejectTask(input),
  cli: resolveCli("reject", "reject a task; the order's action shows rejected", [
    flag("reason", "why", "TEXT"),
    flag("note", "the same as --reason", "TEXT"),
  ]),
});
