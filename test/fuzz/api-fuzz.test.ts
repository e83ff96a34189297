// A seeded, bounded fuzz of every endpoint (issue 22, item 12 "Keep it so"): requests built from
// valid ones and mutated by fast-check with a fixed seed, sent in process through `api.fetch` and
// over real node:http (the standalone transport). Whatever arrives, the answer is below 500 (the
// documented 503 with Retry-After aside: the PDF engine busy) and every error is RFC 9457
// problem+json with type, title, status, code and detail. Reproduce a run with FUZZ_SEED=<seed>;
// FUZZ_RUNS sets the number of in-process requests.
import { request as httpRequest } from "node:http";
import { gzipSync } from "node:zlib";
import { createBuiltInCaseSystem, openCaseSystemStore } from "@incasso/case-system";
import { issueApiKey, setUdfField } from "@incasso/core";
import type { IncassoApi } from "@incasso/server";
import type { SqlStore } from "@incasso/store-sql";
import {
  azureFunctionsTransport,
  expressTransport,
  fastifyTransport,
  fixtureApi,
  nodeHttpTransport,
  type RunningTransport,
} from "@incasso/test-utils";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTextPdf } from "../../packages/pdf-guard/src/internal/testing/fixtures.js";
import { business, individual, orderBody } from "../http/orders-fixtures.js";

const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const IN_PROCESS_RUNS = Number(process.env.FUZZ_RUNS ?? 4000);
const NODE_HTTP_RUNS = Math.max(1, Math.round(IN_PROCESS_RUNS / 8));
const HOST_RUNS = Math.max(1, Math.round(IN_PROCESS_RUNS / 20));
const CONCURRENCY = 6;

/** One request as the fuzz builds it: everything needed to send it again. */
interface FuzzRequest {
  method: string;
  /** Below the base path, with query; sent as is. */
  path: string;
  headers: [string, string][];
  body?: string | Uint8Array;
}

interface Seen {
  status: number;
  headers: Record<string, string>;
  text: string;
}

// ---------------------------------------------------------------------------------------------
// Building blocks

const LONG = "x".repeat(100_000);
const hostileStrings = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udfffy",
  "\ud83d\ude00",
  "\u202eevil",
  "e\u0301",
  "\ufeff",
  "𝕏𝕐",
  LONG,
  "é".repeat(5000),
  "NaN",
  "Infinity",
  "-Infinity",
  "-0",
  "1e309",
  "0x10",
  "2026-02-30",
  "0000-00-00",
  "9999-12-31",
  "2026-11-21T00:00:00Z",
  "'; DROP TABLE orders; --",
  "<script>alert(1)</script>",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a hostile string, meant literally
  "${jndi:ldap://127.0.0.1/a}",
  "{{7*7}}",
  "../../etc/passwd",
  "%00",
  "__proto__",
  "constructor",
  "ord_0000000000000000",
  "cred_0000000000000000",
];
const hostileNumbers = [
  0,
  -0,
  -1,
  1,
  0.5,
  1e-7,
  2 ** 31,
  2 ** 53 + 1,
  -(2 ** 53),
  100_000_000_000,
  100_000_000_001,
  1e21,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER,
];

function nested(depth: number): unknown {
  let v: unknown = "bottom";
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { n: v };
  return v;
}

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...hostileStrings),
  fc.constantFrom(...hostileNumbers),
  fc.constantFrom(null, true, false, [], {}, [null], { "": "" }),
  fc.integer({ min: 1, max: 70 }).map(nested),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.jsonValue({ maxDepth: 3 }),
);

type Mutation =
  | { kind: "drop"; at: number }
  | { kind: "duplicate"; at: number }
  | { kind: "replace"; at: number; value: unknown }
  | { kind: "add"; at: number; key: string; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("drop" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("duplicate" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), value: hostileValue }),
  fc.record({
    kind: fc.constant("add" as const),
    at: fc.nat(),
    key: fc.oneof(
      fc.constantFrom("__proto__", "constructor", "prototype", "", "a".repeat(300), "\u0000", "id", "mode"),
      fc.string({ maxLength: 10 }),
    ),
    value: hostileValue,
  }),
);

type Path = (string | number)[];

function containers(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  if (value !== null && typeof value === "object") {
    out.push(path);
    for (const [k, v] of Object.entries(value))
      containers(v, [...path, Array.isArray(value) ? Number(k) : k], out);
  }
  return out;
}

function leaves(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  if (path.length > 0) out.push(path);
  if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value))
      leaves(v, [...path, Array.isArray(value) ? Number(k) : k], out);
  }
  return out;
}

function at(root: unknown, path: Path): unknown {
  let v = root;
  for (const p of path) v = (v as Record<string | number, unknown>)[p];
  return v;
}

/** Applies the mutations to a deep copy of `value`. */
function mutate(value: unknown, mutations: Mutation[]): unknown {
  let root = structuredClone(value);
  for (const original of mutations) {
    // A copy: fast-check hands out the same constant objects to many plans.
    const m = "value" in original ? { ...original, value: structuredClone(original.value) } : original;
    if (m.kind === "add") {
      const all = containers(root);
      if (all.length === 0) continue;
      const target = at(root, all[m.at % all.length] as Path);
      if (Array.isArray(target)) target.push(m.value);
      // defineProperty, so "__proto__" becomes an own key that JSON.stringify writes out.
      else
        Object.defineProperty(target, m.key, {
          value: m.value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      continue;
    }
    const all = leaves(root);
    if (all.length === 0) {
      if (m.kind === "replace") root = m.value;
      continue;
    }
    const path = all[m.at % all.length] as Path;
    const parent = at(root, path.slice(0, -1)) as Record<string | number, unknown> | unknown[];
    const key = path[path.length - 1] as string | number;
    if (m.kind === "drop") {
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
    } else if (m.kind === "duplicate") {
      const copy = structuredClone((parent as Record<string | number, unknown>)[key]);
      if (Array.isArray(parent)) parent.splice(key as number, 0, copy);
      else (parent as Record<string, unknown>)[`${key}`] = [copy, copy];
    } else {
      (parent as Record<string | number, unknown>)[key] = m.value;
    }
  }
  return root;
}

/** How the (mutated) value becomes bytes on the wire, and the headers that go with it. */
const encodings = [
  "plain",
  "bom",
  "utf16le",
  "latin1",
  "invalid-utf8",
  "truncated",
  "trailing-garbage",
  "duplicate-key",
  "empty",
  "whitespace",
  "gzip",
  "literal",
] as const;
type Encoding = (typeof encodings)[number];

const contentTypes = [
  "application/json; charset=utf-8",
  'APPLICATION/JSON; Charset="UTF-8"',
  "application/json; charset=utf-16",
  "application/json; charset=latin1",
  "application/json; charset=klingon",
  "application/json;;",
  "application/json; charset=",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/merge-patch+json",
  "application/jsonx",
  "*/*",
  "",
  null,
];
const contentEncodings = ["gzip", "br", "identity", "deflate, gzip", "x-klingon"];

function encodeBody(value: unknown, encoding: Encoding, cut: number): string | Uint8Array {
  const text = JSON.stringify(value) ?? "null";
  switch (encoding) {
    case "plain":
      return text;
    case "bom":
      return `\ufeff${text}`;
    case "utf16le":
      return new Uint8Array(Buffer.from(text, "utf16le"));
    case "latin1":
      return new Uint8Array(Buffer.from(`${text.slice(0, -1)},"x":"é"}`, "latin1"));
    case "invalid-utf8": {
      const bytes = Buffer.from(text);
      return new Uint8Array(
        Buffer.concat([
          bytes.subarray(0, cut % (bytes.length + 1)),
          Buffer.from([0xc3, 0x28, 0xff, 0xed, 0xa0, 0x80]),
          bytes.subarray(cut % (bytes.length + 1)),
        ]),
      );
    }
    case "truncated":
      return text.slice(0, cut % (text.length + 1));
    case "trailing-garbage":
      return `${text} }]garbage`;
    case "duplicate-key":
      return text.startsWith("{") ? `{"type":"incasso","amount_cents":-1,${text.slice(1)}` : text;
    case "empty":
      return "";
    case "whitespace":
      return " \n\t ";
    case "gzip":
      return new Uint8Array(gzipSync(text));
    case "literal":
      return ["null", "[]", "1", '"x"', "true", "{}", "[{}]", "-"][cut % 8] as string;
  }
}

// ---------------------------------------------------------------------------------------------
// The world the fuzz runs in

interface World {
  keys: {
    live: string;
    own: string;
    test: string;
    revoked: string;
    plain: string;
    other: string;
  };
  orders: { live: string; test: string; other: string };
  pdfBase64: string;
}

const orderIdVariants = (w: World) => [
  w.orders.live,
  w.orders.live,
  w.orders.test,
  w.orders.other,
  "ord_0123456789abcdef",
  w.orders.live.toUpperCase(),
  `${w.orders.live}0`,
  w.orders.live.slice(0, -1),
  `%6F${w.orders.live.slice(1)}`,
  `${w.orders.live}%00`,
  `${w.orders.live}%2F..`,
  "..%2F..%2Fping",
  "%ED%A0%80",
  "%C0%AF",
  "%zz",
  "%",
  "ord_%20",
  "cred_0000000000000000",
  "x".repeat(3000),
  "",
];

const queryVariants = [
  "",
  "",
  "?limit=1",
  "?limit=100",
  "?limit=0",
  "?limit=101",
  "?limit=-1",
  "?limit=abc",
  "?limit=1e2",
  "?limit=1.5",
  "?limit=%00",
  "?limit=1&limit=2",
  "?type=incasso",
  "?type=foo",
  "?type=",
  "?reference=R-2026-17",
  "?reference=%ED%A0%80",
  "?reference=%00",
  "?customer_number=K-1001",
  `?case_number=${"9".repeat(5000)}`,
  "?cursor=",
  "?cursor=garbage",
  "?cursor=eyJhIjoxfQ",
  `?cursor=${Buffer.from('{"c":"2026-11-21T10:00:00Z","i":"ord_\'--"}').toString("base64url")}`,
  `?cursor=${Buffer.from('{"created_at":1e309,"id":null}').toString("base64url")}`,
  "?unknown=1",
  "?%zz=1",
  "?=&&=",
  "?limit[]=1",
  "?__proto__[x]=1",
];

const oddPaths = [
  "",
  "/",
  "//orders",
  "/orders/",
  "/ORDERS",
  "/orders//hold",
  "/orders/../ping",
  "/./ping",
  "/ping/",
  "/ping%00",
  "/%70ing",
  "/tools",
  "/tools/",
  "/tools/wik/extra",
  "/creditors/cred_0000000000000000",
  "/openapi.json.bak",
  "/%ED%A0%80",
  "/%C0%AF",
  "/%zz",
  `/${"a".repeat(9000)}`,
  "/orders?limit=1#frag",
  "/__proto__",
  "/constructor",
];

const methods = [
  "GET",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "HEAD",
  "OPTIONS",
  "PROPFIND",
  "FOO",
  "patch",
  "get",
];

function validBody(w: World, endpoint: string, variant: number): unknown {
  switch (endpoint) {
    case "POST /orders":
      switch (variant % 6) {
        case 0:
          return orderBody({ reference: `FZ-${variant}`, debtors: [business(`FZ-${variant % 50}`)] });
        case 1:
          return orderBody({
            type: "incasso",
            debtors: [business(null), individual(`FZP-${variant % 20}`)],
            attachments: [
              { filename: "brief.pdf", content_base64: w.pdfBase64, document_type: "wik_letter" },
            ],
          });
        case 2:
          return orderBody({
            metadata: { a: "b", sleutel: "waarde" },
            udf_fields: { dossier: "X-1", bedrag: 12, spoed: true, datum: "2026-11-01" },
            title: "Overeenkomst van opdracht",
            description: "Onderhoud",
          });
        case 3:
          return orderBody({ creditor: { reference: `FZC-${variant % 5}` } });
        case 4:
          return orderBody({
            attachments: [{ filename: "factuur", content_base64: w.pdfBase64, document_type: "invoice" }],
          });
        default:
          return orderBody({
            creditor: { id: "cred_0000000000000000" },
            invoices: [
              { invoice_number: "F-9", invoice_date: "2026-01-01", payment_term_days: 0, amount_cents: 1 },
            ],
          });
      }
    case "POST hold":
    case "POST withdraw":
      return variant % 3 === 0 ? undefined : { reason: "Debiteur belde" };
    case "POST payments":
      return { amount_cents: 1000 + variant, payment_date: "2026-11-01", reason: "Rechtstreeks betaald" };
    case "POST /creditors":
      return { reference: `FZC-${variant % 7}`, name: "Fuzz Creditor BV" };
    case "POST /tools/wik":
      return {
        amount_cents: 125000,
        debtor_type: variant % 2 ? "business" : "consumer",
        due_date: "2026-01-01",
        include_vat: variant % 3 === 0,
      };
    case "POST /tools/rol-router":
      return {
        woonplaats: ["Amsterdam", "Hengelo", "Bergen", "Nergenshuizen"][variant % 4],
        naam: "van der Berg B.V.",
        betekeningsdatum: "2026-12-01",
        ...(variant % 5 === 0 ? { provincie: "Noord-Holland" } : {}),
      };
    default:
      return undefined;
  }
}

const authChoices = [
  "live",
  "own",
  "test",
  "plain",
  "other",
  "revoked",
  "none",
  "bare",
  "basic",
  "lower",
  "double-space",
  "garbage",
  "long",
  "latin1",
] as const;
type AuthChoice = (typeof authChoices)[number];

const endpoints = [
  "GET /ping",
  "GET /openapi.json",
  "GET /orders",
  "GET /orders",
  "GET /orders/{id}",
  "GET /orders/{id}",
  "POST /orders",
  "POST /orders",
  "POST /orders",
  "POST /orders",
  "POST hold",
  "POST withdraw",
  "POST payments",
  "POST payments",
  "GET /creditors",
  "POST /creditors",
  "POST /creditors",
  "POST /tools/wik",
  "POST /tools/wik",
  "POST /tools/rol-router",
  "POST /tools/rol-router",
  "odd path",
] as const;

/** Mostly `usual` (so requests get past the early checks and reach the handlers), else one of `odd`. */
function mostly<T>(usual: T, odd: readonly T[], usualWeight = 3): fc.Arbitrary<T> {
  return fc.oneof(
    { weight: usualWeight, arbitrary: fc.constant(usual) },
    { weight: 2, arbitrary: fc.constantFrom(...odd) },
  );
}

/** The random choices of one request; {@link build} turns them into a request. */
const plan = fc.record({
  // A quarter of the requests are clean but for one mutated field, so hostile values get past the
  // transport checks into validation, storage and the case system.
  focused: fc.oneof(
    { weight: 1, arbitrary: fc.constant(true) },
    { weight: 3, arbitrary: fc.constant(false) },
  ),
  endpoint: fc.constantFrom(...endpoints),
  variant: fc.nat({ max: 10_000 }),
  idChoice: fc.nat(),
  queryChoice: fc.nat(),
  oddMethod: mostly<string | null>(null, methods, 6),
  mutations: fc.oneof(
    { weight: 2, arbitrary: fc.constant([] as Mutation[]) },
    { weight: 3, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }) },
  ),
  encoding: mostly<Encoding>("plain", encodings),
  cut: fc.nat(),
  contentType: mostly<string | null>("application/json", contentTypes),
  contentEncoding: mostly<string | null>(null, contentEncodings, 8),
  auth: mostly<AuthChoice>("live", authChoices),
  idempotencyKey: fc.option(
    fc.oneof(
      fc.constantFrom("fz-1", "fz-2", "fz-3", "fz-4", "fz-5", "fz-6"),
      fc.constantFrom("", " ", "k".repeat(255), "k".repeat(256), "\tkey", "ké", "a b"),
      fc.string({ minLength: 1, maxLength: 20 }).filter((s) => /^[\x21-\x7e]+$/.test(s)),
    ),
    { freq: 2 },
  ),
  extraHeaders: fc.array(
    fc.constantFrom<[string, string]>(
      ["accept", "application/xml"],
      ["accept", "*/*;q=0"],
      ["accept-charset", "utf-16"],
      ["x-forwarded-for", "999.999.999.999, ::ffff:127.0.0.1, garbage"],
      ["x-forwarded-for", "x".repeat(4000)],
      ["x-request-id", "\u00ff\u00fe"],
      ["x-request-id", "r".repeat(5000)],
      ["origin", "null"],
      ["origin", "https://evil.example"],
      ["access-control-request-method", "DELETE"],
      ["range", "bytes=0-1"],
      ["if-none-match", "*"],
      ["idempotency-key", "fz-1"],
      ["content-type", "text/plain"],
      ["authorization", "Bearer svc_live_0000"],
      ["cookie", "a=b"],
      ["x-http-method-override", "DELETE"],
    ),
    { maxLength: 3 },
  ),
});
type Plan = typeof plan extends fc.Arbitrary<infer T> ? T : never;

function authorization(w: World, choice: AuthChoice): string | null {
  switch (choice) {
    case "none":
      return null;
    case "bare":
      return "Bearer";
    case "basic":
      return `Basic ${Buffer.from("a:b").toString("base64")}`;
    case "lower":
      return `bearer ${w.keys.live}`;
    case "double-space":
      return `Bearer  ${w.keys.live}`;
    case "garbage":
      return `Bearer ${w.keys.live}x`;
    case "long":
      return `Bearer ${"k".repeat(8000)}`;
    case "latin1":
      return "Bearer svc_live_\u00e9\u00e9";
    default:
      return `Bearer ${w.keys[choice]}`;
  }
}

function build(w: World, planned: Plan): FuzzRequest {
  const p: Plan = planned.focused
    ? {
        ...planned,
        oddMethod: null,
        mutations: planned.mutations.slice(0, 1),
        encoding: "plain",
        contentType: "application/json",
        contentEncoding: null,
        auth: planned.auth === "test" || planned.auth === "own" ? planned.auth : "live",
        extraHeaders: [],
      }
    : planned;
  const ids = orderIdVariants(w);
  const id = ids[p.idChoice % ids.length] as string;
  const query = queryVariants[p.queryChoice % queryVariants.length] as string;
  let method: string;
  let path: string;
  switch (p.endpoint) {
    case "GET /ping":
      [method, path] = ["GET", p.variant % 4 === 0 ? query.replace("?", "?x=") : "/ping"];
      if (path !== "/ping") path = `/ping${path}`;
      break;
    case "GET /openapi.json":
      [method, path] = ["GET", "/openapi.json"];
      break;
    case "GET /orders":
      [method, path] = ["GET", `/orders${query}`];
      break;
    case "GET /orders/{id}":
      [method, path] = ["GET", `/orders/${id}${p.variant % 5 === 0 ? query : ""}`];
      break;
    case "POST hold":
    case "POST withdraw":
    case "POST payments":
      [method, path] = ["POST", `/orders/${id}/${p.endpoint.slice(5)}`];
      break;
    case "odd path":
      [method, path] = ["GET", oddPaths[p.variant % oddPaths.length] as string];
      break;
    default: {
      const [m, pth] = p.endpoint.split(" ") as [string, string];
      [method, path] = [m, pth];
    }
  }
  if (p.oddMethod !== null) method = p.oddMethod;

  const headers: [string, string][] = [];
  const auth = authorization(w, p.auth);
  if (auth !== null) headers.push(["authorization", auth]);
  const upper = method.toUpperCase();
  let body: string | Uint8Array | undefined;
  const valid = validBody(w, p.endpoint, p.variant);
  const sendsBody = upper !== "GET" && upper !== "HEAD" && (valid !== undefined || p.variant % 7 === 0);
  if (sendsBody) {
    const value = mutate(valid ?? {}, p.mutations);
    body = encodeBody(value, p.encoding, p.cut);
    if (p.contentType !== null) headers.push(["content-type", p.contentType]);
    if (p.contentEncoding !== null) headers.push(["content-encoding", p.contentEncoding]);
    else if (p.encoding === "gzip") headers.push(["content-encoding", "gzip"]);
  }
  if (p.idempotencyKey !== null) headers.push(["idempotency-key", p.idempotencyKey]);
  headers.push(...p.extraHeaders);
  return { method, path, headers, ...(body !== undefined ? { body } : {}) };
}

// ---------------------------------------------------------------------------------------------
// Judging a response

const ENGINE_BUSY = new Set(["attachment_check_unavailable", "pdf_engine_busy"]);

/** What is wrong with the response, or undefined when nothing is. */
function judge(req: FuzzRequest, res: Seen): string | undefined {
  const contentType = res.headers["content-type"] ?? "";
  let problem: Record<string, unknown> | undefined;
  if (res.status >= 400 && req.method.toUpperCase() !== "HEAD") {
    if (!contentType.startsWith("application/problem+json")) return `error with Content-Type ${contentType}`;
    try {
      problem = JSON.parse(res.text) as Record<string, unknown>;
    } catch {
      return "error body is not JSON";
    }
    for (const field of ["type", "title", "code", "detail"]) {
      if (typeof problem[field] !== "string" || problem[field] === "")
        return `problem without a string ${field}`;
    }
    if (problem.status !== res.status)
      return `problem status ${String(problem.status)} differs from ${res.status}`;
    if (problem.type !== `https://incasso.dev/problems/${String(problem.code)}`)
      return `problem type ${String(problem.type)}`;
    if (problem.code === "method_not_allowed" && !res.headers.allow) return "405 without Allow";
    if (res.status === 429 && !res.headers["retry-after"]) return "429 without Retry-After";
  }
  if (res.status >= 500) {
    const busy = res.status === 503 && res.headers["retry-after"] && ENGINE_BUSY.has(String(problem?.code));
    if (!busy) return `server error ${res.status}`;
  }
  return undefined;
}

function show(bytes: string | Uint8Array | undefined, max: number): string | undefined {
  if (bytes === undefined) return undefined;
  const text =
    typeof bytes === "string"
      ? bytes
      : `<${bytes.byteLength} bytes> ${Buffer.from(bytes).toString("latin1")}`;
  return text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text;
}

interface Failure {
  seed: number;
  transport: string;
  index: number;
  why: string;
  request: { method: string; path: string; headers: [string, string][]; body?: string };
  response: { status: number; headers: Record<string, string>; body: string | undefined };
}

// ---------------------------------------------------------------------------------------------
// Sending

async function sendInProcess(api: IncassoApi, req: FuzzRequest): Promise<Seen | "unsendable"> {
  let request: Request;
  try {
    request = new Request(`http://localhost${api.basePath}${req.path}`, {
      method: req.method,
      headers: req.headers,
      ...(req.body !== undefined ? { body: req.body as BodyInit } : {}),
    });
  } catch {
    return "unsendable";
  }
  const res = await api.fetch(request);
  return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
}

function sendNodeHttp(t: RunningTransport, req: FuzzRequest): Promise<Seen | "unsendable"> {
  const address = t.address as NonNullable<RunningTransport["address"]>;
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of req.headers) {
    const prev = headers[k];
    headers[k] = prev === undefined ? v : [...(Array.isArray(prev) ? prev : [prev]), v];
  }
  // node:http frames no body of DELETE or OPTIONS by itself; unframed, the server would read the
  // body as the next request.
  if (req.body !== undefined) headers["content-length"] = String(Buffer.byteLength(req.body));
  return new Promise((resolve, reject) => {
    let r: ReturnType<typeof httpRequest>;
    try {
      r = httpRequest(
        {
          host: address.host,
          port: address.port,
          method: req.method,
          path: `${address.prefix}${req.path}`,
          headers,
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: Object.fromEntries(
                Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : String(v)]),
              ),
              text: Buffer.concat(chunks).toString("utf8"),
            }),
          );
          res.on("error", reject);
        },
      );
    } catch {
      resolve("unsendable");
      return;
    }
    r.setTimeout(30_000, () => r.destroy(new Error("timed out after 30 s")));
    r.on("error", reject);
    if (req.body !== undefined) r.end(req.body);
    else r.end();
  });
}

async function fuzz(
  name: string,
  count: number,
  seed: number,
  w: World,
  send: (req: FuzzRequest) => Promise<Seen | "unsendable">,
): Promise<{ failures: Failure[]; sent: number; statuses: Map<number, number>; codes: Set<string> }> {
  const plans = fc.sample(plan, { seed, numRuns: count });
  const failures: Failure[] = [];
  const statuses = new Map<number, number>();
  const codes = new Set<string>();
  let sent = 0;
  let next = 0;
  async function worker() {
    for (let i = next++; i < plans.length; i = next++) {
      const req = build(w, plans[i] as Plan);
      let seen: Seen | "unsendable";
      try {
        seen = await send(req);
      } catch (error) {
        seen = { status: 0, headers: {}, text: `request failed: ${String(error)}` };
      }
      if (seen === "unsendable") continue;
      sent++;
      statuses.set(seen.status, (statuses.get(seen.status) ?? 0) + 1);
      if (seen.status >= 400) {
        try {
          codes.add(String((JSON.parse(seen.text) as { code?: unknown }).code));
        } catch {}
      }
      const why = seen.status === 0 ? seen.text : judge(req, seen);
      if (why !== undefined) {
        failures.push({
          seed,
          transport: name,
          index: i,
          why,
          request: {
            method: req.method,
            path: show(req.path, 300) as string,
            headers: req.headers.map(([k, v]) => [k, show(v, 200) as string]),
            ...(req.body !== undefined ? { body: show(req.body, 600) as string } : {}),
          },
          response: { status: seen.status, headers: seen.headers, body: show(seen.text, 1000) },
        });
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  console.info(
    `api fuzz over ${name}: ${sent} sent; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`,
  );
  if (failures.length > 0) {
    if (process.env.FUZZ_DUMP) {
      const { writeFileSync } = await import("node:fs");
      writeFileSync(
        `${process.env.FUZZ_DUMP}-${name.replace(/\W/g, "")}.json`,
        JSON.stringify(failures, null, 2),
      );
    }
    console.error(
      `api fuzz over ${name}: ${failures.length} failures; reproduce with FUZZ_SEED=${SEED} FUZZ_RUNS=${IN_PROCESS_RUNS} (fast-check seed of this run: ${seed}, index in each failure)\n` +
        failures
          .slice(0, 20)
          .map((f) => JSON.stringify(f, null, 2))
          .join("\n"),
    );
  }
  return { failures, sent, statuses, codes };
}

// ---------------------------------------------------------------------------------------------

let store: SqlStore;
let api: IncassoApi;
let world: World;
beforeAll(async () => {
  store = await openCaseSystemStore();
  const limits = { perMinute: 1_000_000, perDay: 1_000_000 };
  api = fixtureApi({
    store,
    orders: { caseSystem: createBuiltInCaseSystem({ store }) },
    pdfEngine: undefined,
    apiRateLimit: { perMinute: 1_000_000 },
    tools: {
      wik: { rateLimit: { perMinute: 1_000_000 } },
      rolRouter: { rateLimit: { perMinute: 1_000_000 } },
    },
    logger: { info() {}, warn() {}, error() {} },
  });
  const org = "fuzz Acme";
  // Custom fields of every type, so hostile values reach the stored order, not only the warning.
  const issue = (o: Parameters<typeof issueApiKey>[1]) => issueApiKey(store, { ...limits, ...o });
  const live = await issue({
    organisation: org,
    creditorName: "Acme Creditor BV",
    mode: "live",
    visibility: "organisation",
    creditorManagement: true,
  });
  const own = await issue({ organisation: org, mode: "live", visibility: "own" });
  const test = await issue({ organisation: org, mode: "test" });
  const plain = await issue({ organisation: org, mode: "live" });
  for (const [name, type] of [
    ["dossier", "text"],
    ["bedrag", "number"],
    ["spoed", "boolean"],
    ["datum", "date"],
  ] as const) {
    await setUdfField(store, { organisation: org, name, type });
  }
  const revoked = await issue({ organisation: org, mode: "live" });
  await store.apiKeys.revoke(revoked.record.id, new Date());
  const other = await issue({ organisation: "fuzz Other", mode: "live", creditorManagement: true });
  const pdfBase64 = Buffer.from(
    await makeTextPdf({ pages: [["Factuur F-1", "Voorbeeld B.V.", "Totaal te betalen: EUR 1.250,00"]] }),
  ).toString("base64");
  const place = async (key: string, reference: string) => {
    const res = await api.fetch(
      new Request(`http://localhost${api.basePath}/orders`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(orderBody({ reference, debtors: [business(reference)] })),
      }),
    );
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  world = {
    keys: {
      live: live.key,
      own: own.key,
      test: test.key,
      revoked: revoked.key,
      plain: plain.key,
      other: other.key,
    },
    orders: {
      live: await place(live.key, "FZ-LIVE"),
      test: await place(test.key, "FZ-TEST"),
      other: await place(other.key, "FZ-OTHER"),
    },
    pdfBase64,
  };
  // A creditor for the creditor.reference variants of POST /orders.
  await api.fetch(
    new Request(`http://localhost${api.basePath}/creditors`, {
      method: "POST",
      headers: { authorization: `Bearer ${live.key}`, "content-type": "application/json" },
      body: JSON.stringify({ reference: "FZC-0", name: "Fuzz Creditor BV" }),
    }),
  );
}, 60_000);
afterAll(() => store.close());

describe("API fuzz", () => {
  it(`in process: ${IN_PROCESS_RUNS} mutated requests over every endpoint (seed ${SEED})`, {
    timeout: 120_000,
  }, async () => {
    const { failures, sent, statuses, codes } = await fuzz("api.fetch", IN_PROCESS_RUNS, SEED, world, (req) =>
      sendInProcess(api, req),
    );
    expect(failures).toEqual([]);
    // The fuzz reaches past every layer: success, refusal by the body reader, the router, auth,
    // validation and the order engine. Without this a fuzz that only ever hit 401 would pass.
    expect(sent).toBeGreaterThan(IN_PROCESS_RUNS * 0.9);
    for (const status of [200, 201, 202, 400, 401, 403, 404, 405, 409, 415, 422]) {
      expect({ status, seen: statuses.has(status) }).toEqual({ status, seen: true });
    }
    for (const code of [
      "invalid_json",
      "unsupported_media_type",
      "validation_error",
      "not_found",
      "idempotency_conflict",
      "unauthorized",
      "method_not_allowed",
    ]) {
      expect({ code, seen: codes.has(code) }).toEqual({ code, seen: true });
    }
  });

  it(`over node:http: ${NODE_HTTP_RUNS} mutated requests, raw paths and repeated headers (seed ${SEED + 1})`, {
    timeout: 120_000,
  }, async () => {
    const t = await nodeHttpTransport.start(api);
    try {
      const { failures, sent, statuses } = await fuzz("node:http", NODE_HTTP_RUNS, SEED + 1, world, (req) =>
        sendNodeHttp(t, req),
      );
      expect(failures).toEqual([]);
      expect(sent).toBeGreaterThan(NODE_HTTP_RUNS * 0.9);
      for (const status of [200, 201, 400, 401, 404, 422]) {
        expect({ status, seen: statuses.has(status) }).toEqual({ status, seen: true });
      }
    } finally {
      await t.close();
    }
  });
});

// The hosts that mount the API in a framework of their own, with fewer requests each. A request
// line node's parser refuses (a method such as "patch" or "FOO") is answered by the host's own
// server before the API sees it; the example hosts wire that server with answerHttpErrors, so the
// answer is problem+json there too (decision server-http-edge-cases).
describe.each([
  { transport: expressTransport },
  { transport: fastifyTransport },
  { transport: azureFunctionsTransport },
])("API fuzz over $transport.name", ({ transport }) => {
  it(`${HOST_RUNS} mutated requests (seed ${SEED + 2})`, { timeout: 120_000 }, async () => {
    const t = await transport.start(api);
    try {
      const { failures, sent } = await fuzz(transport.name, HOST_RUNS, SEED + 2, world, async (req) => {
        const init = {
          method: req.method,
          headers: req.headers,
          ...(req.body !== undefined ? { body: req.body as BodyInit } : {}),
        };
        try {
          new Request("http://localhost/", init);
        } catch {
          return "unsendable";
        }
        const res = await t.request(req.path, init);
        return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
      });
      expect(failures).toEqual([]);
      expect(sent).toBeGreaterThan(HOST_RUNS * 0.8);
    } finally {
      await t.close();
    }
  });
});
