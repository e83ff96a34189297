import type { SqlDatabase } from "@incasso/store-sql";

/**
 * A store's database that counts what goes through it, for tests that pin down how many
 * statements an operation costs: statements (those inside a transaction or a batch too),
 * transactions and batches.
 */
export function countingDatabase(db: SqlDatabase) {
  const seen = { statements: 0, transactions: 0, batches: 0 };
  const database: SqlDatabase = {
    engine: db.engine,
    query: <Row>(text: string, params?: unknown[]) => {
      seen.statements++;
      return db.query<Row>(text, params);
    },
    transaction: (fn) => {
      seen.transactions++;
      return db.transaction((tx) =>
        fn({
          query: <Row>(text: string, params?: unknown[]) => {
            seen.statements++;
            return tx.query<Row>(text, params);
          },
        }),
      );
    },
    batch: (statements) => {
      seen.batches++;
      seen.statements += statements.length;
      return db.batch(statements);
    },
    close: () => db.close(),
  };
  return { database, seen };
}
