// Test fixtures, made on the fly so no real document (and no personal data) is ever stored in the
// repository. Used by the tests and the benchmark only; never exported from the package.
import { spawnSync } from "node:child_process";
import { createCipheriv, createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { type PDFDict, PDFDocument, PDFName, PDFString, StandardFonts } from "pdf-lib";

/** Options of {@link makeTextPdf}. */
export interface TextPdfOptions {
  /** Text lines per page. */
  pages: string[][];
  /** Extra bytes of incompressible noise, stored as an unused stream, to reach a target size. */
  paddingBytes?: number;
  /** Write object streams (PDF 1.5 compressed xref); default false. */
  objectStreams?: boolean;
}

/** A PDF with real, extractable text (Helvetica, WinAnsi), one line per entry. */
export async function makeTextPdf(options: TextPdfOptions): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setProducer("incasso test fixtures");
  doc.setCreationDate(new Date(Date.UTC(2026, 0, 1)));
  doc.setModificationDate(new Date(Date.UTC(2026, 0, 1)));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of options.pages) {
    const page = doc.addPage([595, 842]);
    let y = 800;
    for (const line of lines) {
      page.drawText(line, { x: 50, y, size: 11, font });
      y -= 16;
    }
  }
  if (options.paddingBytes && options.paddingBytes > 0) {
    const noise = doc.context.stream(randomBytes(options.paddingBytes), {});
    doc.context.register(noise);
  }
  return doc.save({ useObjectStreams: options.objectStreams ?? false });
}

/**
 * Which active content {@link makeActivePdf} puts in: a JavaScript /OpenAction, JavaScript in the
 * catalog's /Names tree, a Launch /OpenAction, a link annotation whose action is Launch or
 * JavaScript, an embedded file (/EmbeddedFiles), an HTML page before the header, or nothing.
 */
export type ActivePdfVariant =
  | "open-action-javascript"
  | "names-javascript"
  | "open-action-launch"
  | "link-launch"
  | "link-javascript"
  | "embedded-file"
  | "html-prefix"
  | "clean";

/**
 * A one-page invoice PDF with the given active content, written with object streams (compressed,
 * so the names are not in the bytes as written) or without them.
 */
export async function makeActivePdf(
  variant: ActivePdfVariant,
  options: { objectStreams?: boolean } = {},
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setProducer("incasso test fixtures");
  doc.setCreationDate(new Date(Date.UTC(2026, 0, 1)));
  doc.setModificationDate(new Date(Date.UTC(2026, 0, 1)));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText("Factuur F-1", { x: 50, y: 800, size: 11, font });
  const ctx = doc.context;
  const javascript = () => ctx.obj({ S: "JavaScript", JS: PDFString.of("app.alert('test');") });
  const launch = () => ctx.obj({ S: "Launch", F: PDFString.of("calc.exe") });
  const link = (action: PDFDict) =>
    page.node.set(
      PDFName.of("Annots"),
      ctx.obj([
        ctx.register(ctx.obj({ Type: "Annot", Subtype: "Link", Rect: [50, 780, 200, 800], A: action })),
      ]),
    );
  switch (variant) {
    case "open-action-javascript":
      doc.catalog.set(PDFName.of("OpenAction"), javascript());
      break;
    case "names-javascript":
      doc.catalog.set(
        PDFName.of("Names"),
        ctx.obj({ JavaScript: ctx.obj({ Names: [PDFString.of("init"), ctx.register(javascript())] }) }),
      );
      break;
    case "open-action-launch":
      doc.catalog.set(PDFName.of("OpenAction"), launch());
      break;
    case "link-launch":
      link(launch());
      break;
    case "link-javascript":
      link(javascript());
      break;
    case "embedded-file":
      await doc.attach(new TextEncoder().encode("bijlage"), "bijlage.txt", {
        mimeType: "text/plain",
        creationDate: new Date(Date.UTC(2026, 0, 1)),
        modificationDate: new Date(Date.UTC(2026, 0, 1)),
      });
      break;
    default:
      break;
  }
  const pdf = await doc.save({ useObjectStreams: options.objectStreams ?? false });
  if (variant !== "html-prefix") return pdf;
  // A polyglot: a browser shows the HTML, a PDF reader skips it and finds the header.
  const prefix = new TextEncoder().encode("<html><body><script>alert(1)</script></body></html>\n");
  const out = new Uint8Array(prefix.length + pdf.length);
  out.set(prefix, 0);
  out.set(pdf, prefix.length);
  return out;
}

/** An invoice with the usual labels. */
export function invoiceLines(facts: {
  number: string;
  date?: string;
  total: string;
  vat?: string;
  debtor?: string[];
  totalLabel?: string;
}): string[] {
  return [
    "Voorbeeld Installatietechniek B.V.",
    "Industrieweg 1, 1234 AB Voorbeeldstad",
    facts.vat ? `BTW-nummer: ${facts.vat}` : "KvK 00000000",
    "",
    ...(facts.debtor ?? ["J. de Tester", "Teststraat 10", "9999 ZZ Testdorp"]),
    "",
    "FACTUUR",
    `Factuurnummer: ${facts.number}`,
    `Factuurdatum: ${facts.date ?? "15-01-2026"}`,
    "Omschrijving: onderhoud cv-ketel",
    "Subtotaal: € 100,00",
    "BTW 21%: € 21,00",
    `${facts.totalLabel ?? "Totaal te betalen"}: ${facts.total}`,
    "Betaling binnen 14 dagen na factuurdatum.",
  ];
}

/** A 14-day letter (art. 6:96 lid 6 BW) with every required part, or with parts left out. */
export function wikLetterLines(
  facts: { invoice: string; principal: string; costs: string; vat?: string; debtor?: string[] },
  leaveOut: { term?: boolean; costs?: boolean; consequence?: boolean } = {},
): string[] {
  return [
    "Voorbeeld Installatietechniek B.V.",
    "Industrieweg 1, 1234 AB Voorbeeldstad",
    facts.vat ? `BTW-nummer: ${facts.vat}` : "KvK 00000000",
    "",
    ...(facts.debtor ?? ["J. de Tester", "Teststraat 10", "9999 ZZ Testdorp"]),
    "",
    "Betreft: laatste herinnering (aanmaning)",
    `Factuurnummer: ${facts.invoice}`,
    `Openstaand bedrag: ${facts.principal}`,
    "",
    "Geachte heer De Tester,",
    "Ondanks eerdere herinneringen hebben wij uw betaling nog niet ontvangen.",
    leaveOut.term
      ? "Wij verzoeken u het bedrag zo spoedig mogelijk te voldoen."
      : "Wij geven u de gelegenheid het bedrag binnen 14 dagen na ontvangst van deze brief te betalen.",
    ...(leaveOut.consequence
      ? []
      : ["Betaalt u niet binnen deze termijn, dan dragen wij de vordering over aan een incassobureau."]),
    ...(leaveOut.costs
      ? ["Daarbij komen kosten voor uw rekening."]
      : [`De buitengerechtelijke incassokosten bedragen dan ${facts.costs}.`]),
    "Met vriendelijke groet,",
  ];
}

/** Cuts a file short, as a broken upload would. */
export function truncate(bytes: Uint8Array, keep: number): Uint8Array {
  return bytes.slice(0, Math.max(0, Math.min(bytes.length, keep)));
}

/** Random bytes behind a valid header and end marker: passes the envelope, fails the parse. */
export function garbagePdf(size: number): Uint8Array {
  const head = new TextEncoder().encode("%PDF-1.7\n");
  const tail = new TextEncoder().encode("\n%%EOF\n");
  const out = new Uint8Array(size);
  out.set(randomBytes(size));
  out.set(head, 0);
  out.set(tail, size - tail.length);
  return out;
}

/** Base64 of bytes, standard alphabet with padding. */
export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}

// --- Encrypted PDFs -------------------------------------------------------------------------------
// The standard security handler, revision 6 (AES-256), written out by hand following ISO 32000-2
// §7.6.4.3.3 (algorithm 2.B) and §7.6.4.4.7-4.4.10 (U, UE, O, OE, Perms), so no external tool is
// needed to make password-protected fixtures.

function hash2B(password: Buffer, salt: Buffer, userKey: Buffer): Buffer {
  let k = createHash("sha256")
    .update(Buffer.concat([password, salt, userKey]))
    .digest();
  for (let round = 0; ; round++) {
    const k1 = Buffer.concat(new Array(64).fill(Buffer.concat([password, k, userKey])));
    const cipher = createCipheriv("aes-128-cbc", k.subarray(0, 16), k.subarray(16, 32));
    cipher.setAutoPadding(false);
    const e = Buffer.concat([cipher.update(k1), cipher.final()]);
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += e[i] as number;
    const algorithm = ["sha256", "sha384", "sha512"][sum % 3] as string;
    k = createHash(algorithm).update(e).digest();
    if (round >= 63 && (e[e.length - 1] as number) <= round + 1 - 32) break;
  }
  return k.subarray(0, 32);
}

function aes256NoIv(key: Buffer, data: Buffer): Buffer {
  const cipher = createCipheriv("aes-256-cbc", key, Buffer.alloc(16));
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

/**
 * A one-page PDF encrypted with AES-256 (R6). With a non-empty `userPassword` it needs a password
 * to open; with an empty one it opens freely and only the owner password restricts it.
 */
export function makeEncryptedPdf(lines: string[], userPassword: string, ownerPassword: string): Uint8Array {
  const fileKey = randomBytes(32);
  const user = Buffer.from(userPassword, "utf8");
  const owner = Buffer.from(ownerPassword, "utf8");
  const uvs = randomBytes(8);
  const uks = randomBytes(8);
  const u = Buffer.concat([hash2B(user, uvs, Buffer.alloc(0)), uvs, uks]);
  const ue = aes256NoIv(hash2B(user, uks, Buffer.alloc(0)), fileKey);
  const ovs = randomBytes(8);
  const oks = randomBytes(8);
  const o = Buffer.concat([hash2B(owner, ovs, u), ovs, oks]);
  const oe = aes256NoIv(hash2B(owner, oks, u), fileKey);
  const p = -4;
  const permsPlain = Buffer.alloc(16);
  permsPlain.writeInt32LE(p, 0);
  permsPlain.writeUInt32LE(0xffffffff, 4);
  permsPlain.write("Tadb", 8, "latin1");
  randomBytes(4).copy(permsPlain, 12);
  const permsCipher = createCipheriv("aes-256-ecb", fileKey, null);
  permsCipher.setAutoPadding(false);
  const perms = Buffer.concat([permsCipher.update(permsPlain), permsCipher.final()]);

  const content = `BT /F1 12 Tf 14 TL 50 800 Td\n${lines
    .map((l) => `(${l.replace(/[\\()]/g, (m) => `\\${m}`).replace(/€/g, "\x80")}) '\n`)
    .join("")}ET\n`;
  const iv = randomBytes(16);
  const streamCipher = createCipheriv("aes-256-cbc", fileKey, iv);
  const stream = Buffer.concat([
    iv,
    streamCipher.update(Buffer.from(content, "latin1")),
    streamCipher.final(),
  ]);
  const hex = (b: Buffer) => `<${b.toString("hex")}>`;
  const objects = [
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>"),
    Buffer.from("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
    Buffer.from(
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    ),
    Buffer.concat([
      Buffer.from(`<< /Length ${stream.length} >>\nstream\n`),
      stream,
      Buffer.from("\nendstream"),
    ]),
    Buffer.from("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"),
    Buffer.from(
      `<< /Filter /Standard /V 5 /R 6 /Length 256 /CF << /StdCF << /AuthEvent /DocOpen /CFM /AESV3 /Length 32 >> >> /StmF /StdCF /StrF /StdCF /O ${hex(o)} /U ${hex(u)} /OE ${hex(oe)} /UE ${hex(ue)} /P ${p} /Perms ${hex(perms)} >>`,
    ),
  ];
  const id = randomBytes(16).toString("hex");
  return assemble(objects, `/Root 1 0 R /Encrypt 6 0 R /ID [<${id}> <${id}>]`);
}

/**
 * A one-page PDF whose content stream is a deflate bomb: `decodedMiB` of spaces after a line of
 * text, compressed about a thousand to one.
 */
export function makeFlateBombPdf(decodedMiB: number): Uint8Array {
  const raw = Buffer.alloc(decodedMiB * 1024 * 1024, 0x20);
  Buffer.from("BT /F1 12 Tf 50 800 Td (Hallo) Tj ET ").copy(raw, 0);
  const packed = deflateSync(raw, { level: 9 });
  const objects = [
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>"),
    Buffer.from("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
    Buffer.from(
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    ),
    Buffer.concat([
      Buffer.from(`<< /Length ${packed.length} /Filter /FlateDecode >>\nstream\n`),
      packed,
      Buffer.from("\nendstream"),
    ]),
    Buffer.from("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"),
  ];
  return assemble(objects, "/Root 1 0 R");
}

function assemble(objects: Buffer[], trailerEntries: string): Uint8Array {
  const parts = [Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  const offsets: number[] = [];
  let offset = (parts[0] as Buffer).length;
  objects.forEach((body, i) => {
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from("\nendobj\n")]);
    offsets.push(offset);
    offset += chunk.length;
    parts.push(chunk);
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("") +
    `trailer\n<< /Size ${objects.length + 1} ${trailerEntries} >>\nstartxref\n${offset}\n%%EOF\n`;
  parts.push(Buffer.from(xref));
  return new Uint8Array(Buffer.concat(parts));
}

// --- Encrypted PDFs made by qpdf -------------------------------------------------------------------
// The older standard security handlers, RC4 128-bit (revision 3) and AES-128 (revision 4), are
// written by qpdf at test time. CI installs qpdf; elsewhere the tests that need it are skipped.

/** Whether the `qpdf` command can be run here. */
export function qpdfAvailable(): boolean {
  return spawnSync("qpdf", ["--version"], { stdio: "ignore" }).status === 0;
}

/**
 * Encrypts a PDF with qpdf: `rc4-128` gives /V 2 /R 3, `aes-128` gives /V 4 /R 4 with /AESV2
 * (ISO 32000-1 §7.6.3). An empty `userPassword` makes a file that opens without a password.
 */
export function encryptWithQpdf(
  bytes: Uint8Array,
  cipher: "rc4-128" | "aes-128",
  userPassword: string,
  ownerPassword: string,
): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), "pdf-guard-qpdf-"));
  try {
    const input = join(dir, "in.pdf");
    const output = join(dir, "out.pdf");
    writeFileSync(input, bytes);
    const useAes = cipher === "aes-128" ? "y" : "n";
    // qpdf refuses weak crypto unless allowed; R3 is what the fixture is for.
    const args = [
      "--allow-weak-crypto",
      "--encrypt",
      userPassword,
      ownerPassword,
      "128",
      `--use-aes=${useAes}`,
    ];
    const run = spawnSync("qpdf", [...args, "--", input, output], { encoding: "utf8" });
    if (run.status !== 0) throw new Error(`qpdf failed (${run.status}): ${run.stderr}`);
    return new Uint8Array(readFileSync(output));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
