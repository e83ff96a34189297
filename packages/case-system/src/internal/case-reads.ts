import type { BuiltInCaseSystem } from "../built-in-case-system.js";
import { byteaResult } from "./bytea-base64.js";
import { selectCaseDetails } from "./case-details.js";
import type { CaseSystemContext } from "./case-writes.js";
import * as h from "./handler-queries.js";

/**
 * The number of rows a list returns: at most 100 unless asked for up to 1000, at least 1.
 *
 * @example
 * listLimit(undefined); // 100
 * listLimit(5000); // 1000
 */
export function listLimit(limit: number | undefined): number {
  return Math.min(Math.max(1, Math.trunc(limit ?? 100)), 1000);
}

/**
 * What a handler (or a host's back office) reads: a whole case, lists of cases and tasks, one
 * task, and the bytes of a stored attachment.
 *
 * @example
 * const { listCases } = caseReads(caseSystemContext({ store }));
 * const open = await listCases({ open: true });
 */
export function caseReads(
  ctx: CaseSystemContext,
): Pick<BuiltInCaseSystem, "getCase" | "listTasks" | "getTask" | "listCases" | "readAttachment"> {
  const { db } = ctx;
  return {
    getCase: (query) => selectCaseDetails(db, query),

    listTasks: (query = {}) => h.listTasks(db, { ...query, limit: listLimit(query.limit) }),

    getTask: (query) => h.findTask(db, query.taskId),

    listCases: (query = {}) => h.listCases(db, { ...query, limit: listLimit(query.limit) }),

    async readAttachment(input) {
      const { rows } = await db.query<{
        filename: string;
        document_type: string | null;
        content_base64: string;
        whole: boolean;
      }>(
        // Read as base64 text, decoded by Buffer (internal/bytea-base64.ts). `whole`: the row holds
        // the whole file, as every row on PostgreSQL and every small file does.
        `SELECT filename, document_type, encode(content, 'base64') AS content_base64,
           octet_length(content) = size_bytes AS whole
         FROM case_attachments WHERE case_number = $1 AND order_id = $2 AND position = $3`,
        [input.caseNumber, input.orderId, input.position],
      );
      const row = rows[0];
      if (row === undefined) return undefined;
      const found = { filename: row.filename, documentType: row.document_type };
      if (row.whole) return { ...found, bytes: byteaResult(row.content_base64) };
      // A file stored in parts (case-queries.ts, storeAttachment) continues in them, in order.
      const { rows: parts } = await db.query<{ content_base64: string }>(
        "SELECT encode(content, 'base64') AS content_base64 FROM case_attachment_parts WHERE order_id = $1 AND position = $2 ORDER BY part",
        [input.orderId, input.position],
      );
      // Joined once, and handed on as a view of that buffer rather than copied again.
      const joined = Buffer.concat([row, ...parts].map((p) => byteaResult(p.content_base64)));
      return { ...found, bytes: new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength) };
    },
  };
}
