import { CoreError, type CreditorRecord, type CreditorRepository } from "@incasso/core";
import type { Executor } from "../database.js";
import { isUniqueViolation, toDate, ts } from "../internal/sql-errors.js";

interface Row {
  id: string;
  organisation_id: string;
  reference: string;
  name: string;
  created_at: Date;
}

function record(row: Row): CreditorRecord {
  return {
    id: row.id,
    organisationId: row.organisation_id,
    reference: row.reference,
    name: row.name,
    createdAt: toDate(row.created_at),
  };
}

/**
 * Creditors on SQL, unique per organisation by reference, listed with keyset pagination on
 * (created_at, id).
 *
 * @example
 * const creditor = await creditorRepository(db).create({ id: newId("cred"), organisationId, reference: "ACME-1", name: "Acme", now: new Date() });
 */
export function creditorRepository(db: Executor): CreditorRepository {
  return {
    async create(input) {
      try {
        const { rows } = await db.query<Row>(
          `INSERT INTO creditors (id, organisation_id, reference, name, created_at)
           VALUES ($1, $2, $3, $4, $5) RETURNING *`,
          [input.id, input.organisationId, input.reference, input.name, ts(input.now)],
        );
        const row = rows[0];
        if (!row) throw new Error("The creditor was not stored.");
        return record(row);
      } catch (error) {
        // The unique constraint decides, so two concurrent requests cannot both create it.
        if (isUniqueViolation(error)) {
          throw new CoreError(
            "creditor_exists",
            `A creditor with reference "${input.reference}" already exists in this account.`,
            { field: "reference", cause: error },
          );
        }
        throw error;
      }
    },
    async list(input) {
      const params: unknown[] = [input.organisationId, input.limit + 1];
      let where = "organisation_id = $1";
      if (input.after !== undefined) {
        params.push(input.after);
        where += ` AND (created_at, id) > (SELECT created_at, id FROM creditors
          WHERE organisation_id = $1 AND id = $3)`;
      }
      const { rows } = await db.query<Row>(
        `SELECT * FROM creditors WHERE ${where} ORDER BY created_at, id LIMIT $2`,
        params,
      );
      return rows.map(record);
    },
    async findById(organisationId, id) {
      const { rows } = await db.query<Row>("SELECT * FROM creditors WHERE organisation_id = $1 AND id = $2", [
        organisationId,
        id,
      ]);
      return rows[0] ? record(rows[0]) : undefined;
    },
    async findByReference(organisationId, reference) {
      const { rows } = await db.query<Row>(
        "SELECT * FROM creditors WHERE organisation_id = $1 AND reference = $2",
        [organisationId, reference],
      );
      return rows[0] ? record(rows[0]) : undefined;
    },
  };
}
