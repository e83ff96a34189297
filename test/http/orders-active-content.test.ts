// Issue 28, item 7 (decision pdf-guard-active-content): a PDF with JavaScript, a Launch action, an
// embedded file or bytes before its header is accepted unchanged with the warning
// pdf_active_content naming it, or refused as invalid_attachment when the operator says so.
import { randomBytes } from "node:crypto";
import type { BuiltInCaseSystem } from "@incasso/case-system";
import { createBuiltInCaseSystem, openCaseSystemStore } from "@incasso/case-system";
import { orderWarnings } from "@incasso/console";
import { issueApiKey } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { fixtureApi, type RunningTransport, responseValidator, transports } from "@incasso/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeActivePdf } from "../../packages/pdf-guard/src/internal/testing/fixtures.js";
import { business, count, json, orderBody } from "./orders-fixtures.js";

let store: SqlStore;
let cases: BuiltInCaseSystem;
let accepting: ReturnType<typeof fixtureApi>;
let refusing: ReturnType<typeof fixtureApi>;
let check: ReturnType<typeof responseValidator>;
let files: { filename: string; content_base64: string }[];
const quiet = { info() {}, warn() {}, error() {} };

beforeAll(async () => {
  store = await openCaseSystemStore();
  cases = createBuiltInCaseSystem({ store });
  accepting = fixtureApi({ store, orders: { caseSystem: cases }, logger: quiet });
  refusing = fixtureApi({ store, orders: { caseSystem: cases, refuseActivePdf: true }, logger: quiet });
  check = responseValidator(accepting.openapi());
  const pdf = async (variant: Parameters<typeof makeActivePdf>[0], objectStreams = false) =>
    Buffer.from(await makeActivePdf(variant, { objectStreams })).toString("base64");
  files = [
    { filename: "script.pdf", content_base64: await pdf("open-action-javascript") },
    // Written with object streams: the Launch action is only in compressed bytes.
    { filename: "starter.pdf", content_base64: await pdf("link-launch", true) },
    { filename: "schoon.pdf", content_base64: await pdf("clean") },
    { filename: "ingesloten.pdf", content_base64: await pdf("embedded-file") },
    { filename: "polyglot.pdf", content_base64: await pdf("html-prefix") },
  ];
});
afterAll(() => store.close());

const warning = (filename: string, index: number, what: string) => ({
  code: "pdf_active_content",
  message: `Bijlage ${filename} (attachments[${index}]) bevat actieve inhoud: ${what}. Het bestand is ongewijzigd aangenomen; de opdracht is wel verwerkt.`,
  invoice_number: null,
});

describe.each(transports)("POST /orders with active content in a PDF, over $name", (transport) => {
  let open: RunningTransport;
  let strict: RunningTransport;
  let live: string;
  const cn = (n: string) => `${transport.name.replace(/[^a-z]/g, "").slice(0, 8)}-${n}`;
  beforeAll(async () => {
    open = await transport.start(accepting);
    strict = await transport.start(refusing);
    live = (
      await issueApiKey(store, {
        organisation: `active ${transport.name}`,
        mode: "live",
        perMinute: 1000,
        perDay: 10_000,
      })
    ).key;
  });
  afterAll(async () => {
    await open.close();
    await strict.close();
  });

  it("201: every file is stored unchanged, and each one with active content gets a warning naming it", async () => {
    const res = await open.request(
      "/orders",
      json(live, orderBody({ debtors: [business(cn("ACT"))], attachments: files })),
    );
    expect(res.status).toBe(201);
    const order = await res.json();
    check("/orders", "post", 201, order);
    expect(order.warnings).toEqual([
      warning("script.pdf", 0, "JavaScript"),
      warning("starter.pdf", 1, "een Launch-actie (opent een ander programma of bestand)"),
      warning("ingesloten.pdf", 3, "een ingesloten bestand"),
      warning(
        "polyglot.pdf",
        4,
        "tekens vóór de %PDF-kop (het bestand is ook iets anders, zoals een HTML-pagina)",
      ),
    ]);
    // The warnings are kept with the order, as the spec's GET /orders/{id} repeats them.
    const again = await open.request(`/orders/${order.id}`, { headers: { authorization: `Bearer ${live}` } });
    expect((await again.json()).warnings).toEqual(order.warnings);
    for (const [position, file] of files.entries()) {
      const kept = await cases.readAttachment({
        caseNumber: order.case.case_number,
        orderId: order.id,
        position,
      });
      expect(Buffer.from(kept?.bytes ?? []).toString("base64")).toBe(file.content_base64);
    }
  });

  it("a clean PDF gets no warning", async () => {
    const res = await open.request(
      "/orders",
      json(live, orderBody({ debtors: [business(cn("CLEAN"))], attachments: [files[2]] })),
    );
    expect(res.status).toBe(201);
    expect((await res.json()).warnings).toEqual([]);
  });

  it("with refuseActivePdf: 422 invalid_attachment naming each such file, nothing stored; a clean PDF passes", async () => {
    const before = await count(store, "SELECT count(*) AS n FROM orders");
    const res = await strict.request(
      "/orders",
      json(live, orderBody({ debtors: [business(cn("REF"))], attachments: files })),
    );
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const problem = await res.json();
    check("/orders", "post", 422, problem);
    expect(problem).toMatchObject({
      status: 422,
      code: "invalid_attachment",
      detail:
        "4 attachments were refused: each must be a valid PDF that opens without a password and, on this server, holds no active content.",
    });
    const active = (what: string) =>
      `The PDF holds active content (${what}); this server accepts PDFs without it.`;
    expect(problem.errors).toEqual([
      { field: "attachments[0].content_base64", code: "pdf_active_content", message: active("JavaScript") },
      {
        field: "attachments[1].content_base64",
        code: "pdf_active_content",
        message: active("a Launch action"),
      },
      {
        field: "attachments[3].content_base64",
        code: "pdf_active_content",
        message: active("an embedded file"),
      },
      {
        field: "attachments[4].content_base64",
        code: "pdf_active_content",
        message: active("bytes before the %PDF- header"),
      },
    ]);
    expect(await count(store, "SELECT count(*) AS n FROM orders")).toBe(before);
    const clean = await strict.request(
      "/orders",
      json(live, orderBody({ debtors: [business(cn("REFOK"))], attachments: [files[2]] })),
    );
    expect(clean.status).toBe(201);
    expect((await clean.json()).warnings).toEqual([]);
  });
});

// What the console's case page reads: the warnings kept on the order row, on both databases.
const targets: { name: string; open: () => Promise<SqlStore>; schema?: string }[] = [
  { name: "PGlite", open: () => openCaseSystemStore() },
];
const url = process.env.TEST_DATABASE_URL;
if (url) {
  const schema = `active_content_${randomBytes(6).toString("hex")}`;
  targets.push({ name: "PostgreSQL", open: () => openCaseSystemStore({ databaseUrl: url, schema }), schema });
}

describe.each(targets)("the warnings of an order with active content, read back on $name", (target) => {
  let db: SqlStore;
  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(async () => {
    if (target.schema) await db.database.query(`DROP SCHEMA ${target.schema} CASCADE`);
    await db.close();
  });

  it("orderWarnings gives each order's warnings in the order of the ids, and none for an unknown id", async () => {
    const api = fixtureApi({
      store: db,
      orders: { caseSystem: createBuiltInCaseSystem({ store: db }) },
      logger: quiet,
    });
    const key = (await issueApiKey(db, { organisation: "Read back BV", mode: "live" })).key;
    const place = async (customerNumber: string, attachments: typeof files) => {
      const res = await api.fetch(
        new Request(
          "http://x/api/v1/orders",
          json(key, orderBody({ debtors: [business(customerNumber)], attachments })),
        ),
      );
      expect(res.status).toBe(201);
      return (await res.json()) as { id: string };
    };
    const flagged = await place("RB-1", [files[4], files[0]] as typeof files);
    const clean = await place("RB-2", [files[2]] as typeof files);
    expect(await orderWarnings(db.database, [clean.id, "ord_0000000000000000", flagged.id])).toEqual([
      {
        order_id: flagged.id,
        ...warning(
          "polyglot.pdf",
          0,
          "tekens vóór de %PDF-kop (het bestand is ook iets anders, zoals een HTML-pagina)",
        ),
      },
      { order_id: flagged.id, ...warning("script.pdf", 1, "JavaScript") },
    ]);
    expect(await orderWarnings(db.database, [])).toEqual([]);
  });
});
