import type { Organisation, OrganisationRepository } from "@incasso/core";
import type { Executor } from "../database.js";
import { toDate, ts } from "../internal/sql-errors.js";

interface Row {
  id: string;
  name: string;
  creditor_name: string;
  created_at: Date;
}

function organisation(row: Row): Organisation {
  return { id: row.id, name: row.name, creditorName: row.creditor_name, createdAt: toDate(row.created_at) };
}

/**
 * Organisations on SQL; every function takes the executor explicitly.
 *
 * @example
 * const { organisation } = await organisationRepository(db).ensure({ id: newId("org"), name: "Acme BV", creditorName: "Acme BV", now: new Date() });
 */
export function organisationRepository(db: Executor): OrganisationRepository {
  return {
    async ensure(input) {
      // ON CONFLICT DO NOTHING keeps a concurrent first use from failing; the SELECT then sees the
      // row the other caller created.
      const inserted = await db.query<Row>(
        `INSERT INTO organisations (id, name, creditor_name, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (name) DO NOTHING RETURNING *`,
        [input.id, input.name, input.creditorName, ts(input.now)],
      );
      const row = inserted.rows[0];
      if (row) return { organisation: organisation(row), created: true };
      const existing = await db.query<Row>("SELECT * FROM organisations WHERE name = $1", [input.name]);
      const found = existing.rows[0];
      if (!found) throw new Error(`Organisation "${input.name}" vanished while it was being created.`);
      return { organisation: organisation(found), created: false };
    },
    async findByName(name) {
      const { rows } = await db.query<Row>("SELECT * FROM organisations WHERE name = $1", [name]);
      return rows[0] ? organisation(rows[0]) : undefined;
    },
    async list() {
      const { rows } = await db.query<Row>("SELECT * FROM organisations ORDER BY name");
      return rows.map(organisation);
    },
  };
}
