import type { UdfFieldRecord, UdfFieldRepository, UdfFieldType } from "@incasso/core";
import type { Executor } from "../database.js";
import { toDate, ts } from "../internal/sql-errors.js";

interface Row {
  organisation_id: string;
  name: string;
  type: UdfFieldType;
  created_at: Date;
  updated_at: Date;
}

function record(row: Row): UdfFieldRecord {
  return {
    organisationId: row.organisation_id,
    name: row.name,
    type: row.type,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

/**
 * Custom case field definitions on SQL.
 *
 * @example
 * await udfFieldRepository(db).set({ organisationId, name: "contract_id", type: "text", now: new Date() });
 */
export function udfFieldRepository(db: Executor): UdfFieldRepository {
  return {
    async set(input) {
      const { rows } = await db.query<Row>(
        `INSERT INTO udf_fields AS f (organisation_id, name, type, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $4)
         ON CONFLICT (organisation_id, name) DO UPDATE SET type = EXCLUDED.type, updated_at = EXCLUDED.updated_at
         RETURNING *`,
        [input.organisationId, input.name, input.type, ts(input.now)],
      );
      const row = rows[0];
      if (!row) throw new Error("The field definition was not stored.");
      return record(row);
    },
    async list(organisationId) {
      const { rows } = await db.query<Row>(
        "SELECT * FROM udf_fields WHERE organisation_id = $1 ORDER BY name",
        [organisationId],
      );
      return rows.map(record);
    },
    async remove(organisationId, name) {
      const { rowCount } = await db.query("DELETE FROM udf_fields WHERE organisation_id = $1 AND name = $2", [
        organisationId,
        name,
      ]);
      return rowCount === 1;
    },
  };
}
