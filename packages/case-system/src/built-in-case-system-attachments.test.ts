import { randomBytes } from "node:crypto";
import type { SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBuiltInCaseSystem } from "./built-in-case-system.js";
import { ATTACHMENT_PART_BYTES } from "./internal/case-queries.js";
import { businessDebtor, caseOrderInput, withItems } from "./internal/testing/case-order-input.js";
import { closeTarget, newOrganisation } from "./internal/testing/store-targets.js";
import { openCaseSystemStore } from "./open-case-system-store.js";

// Attachment bytes reach the database in binary on node-postgres (Executor.binaryBytes) and as
// base64 text the database decodes on PGlite; either way they come back byte for byte. On PGlite,
// and on PostgreSQL whenever a test database is configured (in a schema of its own, dropped after).
const targets: { name: string; open: () => Promise<SqlStore>; schema?: string; binary: boolean }[] = [
  { name: "PGlite", open: () => openCaseSystemStore(), binary: false },
];
const url = process.env.TEST_DATABASE_URL;
if (url) {
  const schema = `case_files_${randomBytes(6).toString("hex")}`;
  targets.push({
    name: "PostgreSQL",
    open: () => openCaseSystemStore({ databaseUrl: url, schema }),
    schema,
    binary: true,
  });
}

describe.each(targets)("attachments of the built-in case system on $name", (target) => {
  let store: SqlStore;
  let organisationId: string;
  beforeAll(async () => {
    store = await target.open();
    organisationId = await newOrganisation(store, "Files BV");
  });
  afterAll(() => closeTarget(target, store));

  async function placedOrder(reference: string) {
    const cases = createBuiltInCaseSystem({ store });
    const order = caseOrderInput({
      orderId: `ord_${randomBytes(8).toString("hex")}`,
      organisationId,
      creditor: { id: null, name: "Files BV" },
      type: "incasso",
      reference,
      debtors: [businessDebtor("Voorbeeld B.V.", `K-${reference}`)],
      at: new Date("2026-11-25T10:00:00.000Z"),
    });
    const { caseNumber } = await cases.placeOnCase(withItems(order));
    return { cases, orderId: order.orderId, caseNumber };
  }

  it("says whether the driver sends bytes in binary", () => {
    expect(store.database.binaryBytes === true).toBe(target.binary);
  });

  it("stores every byte value and a file of megabytes, a view into a larger buffer included", async () => {
    const { cases, orderId, caseNumber } = await placedOrder("A-1");
    const every = new Uint8Array(256).map((_, i) => i);
    const large = new Uint8Array(randomBytes(3 * 1024 * 1024 + 2));
    // Bytes 5 to 15 of a larger buffer: only the view's bytes are stored.
    const view = new Uint8Array(randomBytes(32).buffer, 5, 11);
    const files = [every, large, view];
    for (const [attachmentIndex, bytes] of files.entries()) {
      await cases.storeAttachment({
        orderId,
        caseNumber,
        attachmentIndex,
        filename: `f-${attachmentIndex}.pdf`,
        documentType: attachmentIndex === 0 ? "invoice" : null,
        bytes,
      });
    }
    for (const [position, bytes] of files.entries()) {
      const read = await cases.readAttachment({ caseNumber, orderId, position });
      expect(read?.filename).toBe(`f-${position}.pdf`);
      expect(read?.documentType).toBe(position === 0 ? "invoice" : null);
      expect(read?.bytes.byteLength).toBe(bytes.byteLength);
      expect(Buffer.from(read?.bytes ?? []).equals(Buffer.from(bytes))).toBe(true);
    }
    const { rows } = await store.database.query<{ position: number; size_bytes: number }>(
      "SELECT position, size_bytes FROM case_attachments WHERE order_id = $1 ORDER BY position",
      [orderId],
    );
    expect(rows.map((r) => [Number(r.position), Number(r.size_bytes)])).toEqual([
      [0, 256],
      [1, 3 * 1024 * 1024 + 2],
      [2, 11],
    ]);
  });

  async function partSizes(orderId: string): Promise<number[][]> {
    const { rows } = await store.database.query<{ position: number; part: number; n: number }>(
      "SELECT position, part, length(content) AS n FROM case_attachment_parts WHERE order_id = $1 ORDER BY position, part",
      [orderId],
    );
    return rows.map((r) => [Number(r.position), Number(r.part), Number(r.n)]);
  }

  it("stores a file in parts of 256 KiB without binary parameters, in one row with them, and a repeat adds none", async () => {
    const { cases, orderId, caseNumber } = await placedOrder("PARTS");
    const size = 2 * ATTACHMENT_PART_BYTES + 1000;
    const bytes = new Uint8Array(randomBytes(size));
    const input = {
      orderId,
      caseNumber,
      attachmentIndex: 0,
      filename: "groot.pdf",
      documentType: null,
      bytes,
    };
    await cases.storeAttachment(input);
    await cases.storeAttachment(input);
    const { rows } = await store.database.query<{ n: number; size_bytes: number }>(
      "SELECT length(content) AS n, size_bytes FROM case_attachments WHERE order_id = $1",
      [orderId],
    );
    if (target.binary) {
      expect(rows.map((r) => [Number(r.n), Number(r.size_bytes)])).toEqual([[size, size]]);
      expect(await partSizes(orderId)).toEqual([]);
    } else {
      expect(rows.map((r) => [Number(r.n), Number(r.size_bytes)])).toEqual([[ATTACHMENT_PART_BYTES, size]]);
      expect(await partSizes(orderId)).toEqual([
        [0, 1, ATTACHMENT_PART_BYTES],
        [0, 2, 1000],
      ]);
    }
    const read = await cases.readAttachment({ caseNumber, orderId, position: 0 });
    expect(Buffer.from(read?.bytes ?? []).equals(Buffer.from(bytes))).toBe(true);
  });

  it("lets the event loop turn between the parts of a file, so other requests are served while it is stored", async () => {
    const { cases, orderId, caseNumber } = await placedOrder("TURNS");
    const bytes = new Uint8Array(randomBytes(8 * ATTACHMENT_PART_BYTES));
    // A ticker rescheduled with setImmediate runs once per turn of the event loop.
    let turns = 0;
    let done = false;
    const tick = () => {
      if (done) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    await cases.storeAttachment({
      orderId,
      caseNumber,
      attachmentIndex: 0,
      filename: "c.pdf",
      documentType: null,
      bytes,
    });
    done = true;
    // On PGlite, one turn before each of the 7 parts after the row; PostgreSQL's driver waits for
    // the server's answer on the socket, which is a turn of its own.
    expect(turns).toBeGreaterThanOrEqual(target.binary ? 1 : 7);
  });

  it("reads a whole file with one query, and a file in parts with one more", async () => {
    const { cases, orderId, caseNumber } = await placedOrder("READS");
    const small = new Uint8Array(randomBytes(1000));
    const large = new Uint8Array(randomBytes(ATTACHMENT_PART_BYTES + 5));
    for (const [attachmentIndex, bytes] of [small, large].entries()) {
      await cases.storeAttachment({
        orderId,
        caseNumber,
        attachmentIndex,
        filename: "r.pdf",
        documentType: null,
        bytes,
      });
    }
    const database = store.database;
    const queries: string[] = [];
    const counting = {
      ...database,
      binaryBytes: database.binaryBytes,
      query: (text: string, params?: unknown[]) => {
        queries.push(text.includes("case_attachment_parts") ? "parts" : "row");
        return database.query(text, params);
      },
    } as typeof database;
    const reader = createBuiltInCaseSystem({ store: { ...store, database: counting } });
    const first = await reader.readAttachment({ caseNumber, orderId, position: 0 });
    expect(Buffer.from(first?.bytes ?? []).equals(Buffer.from(small))).toBe(true);
    expect(queries).toEqual(["row"]);
    queries.length = 0;
    const second = await reader.readAttachment({ caseNumber, orderId, position: 1 });
    expect(Buffer.from(second?.bytes ?? []).equals(Buffer.from(large))).toBe(true);
    expect(queries).toEqual(target.binary ? ["row"] : ["row", "parts"]);
  });

  it("stores a file of exactly one part in its row alone", async () => {
    const { cases, orderId, caseNumber } = await placedOrder("ONE-PART");
    const bytes = new Uint8Array(randomBytes(ATTACHMENT_PART_BYTES));
    await cases.storeAttachment({
      orderId,
      caseNumber,
      attachmentIndex: 0,
      filename: "a.pdf",
      documentType: null,
      bytes,
    });
    expect(await partSizes(orderId)).toEqual([]);
    const read = await cases.readAttachment({ caseNumber, orderId, position: 0 });
    expect(Buffer.from(read?.bytes ?? []).equals(Buffer.from(bytes))).toBe(true);
  });

  it("keeps nothing of a file whose last part fails to be written, and stores it whole on the retry", async () => {
    const { orderId, caseNumber } = await placedOrder("HALF");
    const database = store.database;
    let failPart = !target.binary;
    // The database as the case system sees it, failing the insert of part 2 once.
    const failing = {
      ...database,
      transaction: <T>(fn: (tx: typeof database) => Promise<T>) =>
        database.transaction((tx) =>
          fn({
            ...tx,
            binaryBytes: database.binaryBytes,
            query: (text: string, params?: unknown[]) => {
              if (failPart && text.includes("case_attachment_parts") && params?.[2] === 2) {
                failPart = false;
                return Promise.reject(new Error("connection lost"));
              }
              return tx.query(text, params);
            },
          } as typeof database),
        ),
    } as typeof database;
    const cases = createBuiltInCaseSystem({ store: { ...store, database } });
    const flaky = createBuiltInCaseSystem({ store: { ...store, database: failing } });
    const bytes = new Uint8Array(randomBytes(2 * ATTACHMENT_PART_BYTES + 7));
    const input = { orderId, caseNumber, attachmentIndex: 0, filename: "b.pdf", documentType: null, bytes };
    if (target.binary) {
      await flaky.storeAttachment(input);
    } else {
      await expect(flaky.storeAttachment(input)).rejects.toThrow("connection lost");
      expect(await cases.readAttachment({ caseNumber, orderId, position: 0 })).toBeUndefined();
      expect(await partSizes(orderId)).toEqual([]);
      await flaky.storeAttachment(input);
    }
    const read = await cases.readAttachment({ caseNumber, orderId, position: 0 });
    expect(Buffer.from(read?.bytes ?? []).equals(Buffer.from(bytes))).toBe(true);
  });
});
