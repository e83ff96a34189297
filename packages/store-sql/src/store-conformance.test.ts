import { randomBytes } from "node:crypto";
import { describeStoreConformance } from "@incasso/test-utils";
import { openStore, type SqlStore } from "./index.js";

const raw = async (store: unknown, sql: string) => (await (store as SqlStore).database.query(sql)).rows;

describeStoreConformance({ name: "PGlite", open: () => openStore(), rawQuery: raw });

// PostgreSQL whenever a test database is configured (.ci/run creates one per run). Each run works
// in a schema of its own and drops it, so parallel files and runs never see each other's rows.
const url = process.env.TEST_DATABASE_URL;
if (url) {
  const schema = `conformance_${randomBytes(6).toString("hex")}`;
  describeStoreConformance({
    name: "PostgreSQL",
    open: () => openStore({ databaseUrl: url, schema }),
    rawQuery: raw,
    cleanup: async (store) => {
      await (store as SqlStore).database.query(`DROP SCHEMA ${schema} CASCADE`);
    },
  });
}
