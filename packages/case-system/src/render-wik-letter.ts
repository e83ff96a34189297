import type { PDFFont, PDFPage } from "pdf-lib";
import type { WikLetter } from "./wik-letter.js";

// A4 in points (ISO 216), margins of about 2.2 cm.
const PAGE = { width: 595.28, height: 841.89 } as const;
const MARGIN = 64;
const SIZE = 10.5;
const LEADING = 14.5;

// The standard fonts write WinAnsi only (PDF 32000-1, Annex D). A character outside it loses its
// accent when it has one (ł stays ?, é stays é), else it becomes "?", so a name never breaks the letter.
const characterSets = new WeakMap<PDFFont, Set<number>>();

function fitText(text: string, font: PDFFont): string {
  let supported = characterSets.get(font);
  if (supported === undefined) {
    supported = new Set(font.getCharacterSet());
    characterSets.set(font, supported);
  }
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 63;
    if (supported.has(code)) {
      out += ch;
      continue;
    }
    const plain = ch.normalize("NFD").replace(/\p{M}/gu, "");
    const set = supported;
    out += [...plain].every((c) => set.has(c.codePointAt(0) ?? 0)) && plain !== "" ? plain : "?";
  }
  return out;
}

/**
 * Splits a word wider than `width` into pieces that fit: a 200-character company name (spec
 * Debtor.company_name) or a reference without spaces must not run past the margin.
 */
function breakWord(word: string, font: PDFFont, size: number, width: number): string[] {
  const pieces: string[] = [];
  let piece = "";
  for (const ch of word) {
    if (piece !== "" && font.widthOfTextAtSize(piece + ch, size) > width) {
      pieces.push(piece);
      piece = ch;
    } else piece += ch;
  }
  if (piece !== "") pieces.push(piece);
  return pieces;
}

/** Lines of at most `width` points: at spaces where it can, inside a word that is wider itself. */
function wrapText(text: string, font: PDFFont, width: number, size = SIZE): string[] {
  const lines: string[] = [];
  let line = "";
  for (const whole of text.split(/\s+/).filter(Boolean)) {
    const pieces =
      font.widthOfTextAtSize(whole, size) > width ? breakWord(whole, font, size, width) : [whole];
    for (const word of pieces) {
      const candidate = line === "" ? word : `${line} ${word}`;
      if (line !== "" && font.widthOfTextAtSize(candidate, size) > width) {
        lines.push(line);
        line = word;
      } else line = candidate;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}

/**
 * Lays out a {@link WikLetter} as an A4 PDF with pdf-lib in Helvetica: its lines, wrapped
 * paragraphs and the invoice table, on as many pages as the invoices need. The document title is
 * the letter's title and its language Dutch.
 *
 * @example
 * const bytes = await renderWikLetterPdf(composeWikLetter(input));
 * await writeFile("aanmaning.pdf", bytes);
 */
export async function renderWikLetterPdf(
  letter: WikLetter,
  options: { date?: Date } = {},
): Promise<Uint8Array> {
  // Imported when the first letter is made: pdf-lib is most of this package's load time, and the
  // CLI's commands that make no letter (keys, udf, migrate) should not pay for it.
  const { PDFDocument, StandardFonts } = await import("pdf-lib");
  const doc = await PDFDocument.create();
  const date = options.date ?? new Date();
  doc.setTitle(letter.title);
  doc.setLanguage("nl-NL");
  doc.setCreationDate(date);
  doc.setModificationDate(date);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const width = PAGE.width - 2 * MARGIN;
  let page: PDFPage = doc.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - MARGIN;

  const room = (lines: number) => {
    if (y - lines * LEADING >= MARGIN) return;
    page = doc.addPage([PAGE.width, PAGE.height]);
    y = PAGE.height - MARGIN;
  };
  const draw = (text: string, x: number, font: PDFFont = regular) => {
    page.drawText(fitText(text, font), { x, y, size: SIZE, font });
  };
  const drawRight = (text: string, right: number, font: PDFFont = regular) => {
    const fitted = fitText(text, font);
    page.drawText(fitted, { x: right - font.widthOfTextAtSize(fitted, SIZE), y, size: SIZE, font });
  };

  for (const block of letter.blocks) {
    switch (block.kind) {
      case "gap":
        y -= LEADING;
        break;
      case "line": {
        // Names, streets and references may be long (spec: company_name 200, street 150,
        // reference 100 characters): wrapped within the margins like a paragraph, without its gap.
        const font = block.bold ? bold : regular;
        for (const line of wrapText(fitText(block.text, font), font, width)) {
          room(1);
          draw(line, MARGIN, font);
          y -= LEADING;
        }
        break;
      }
      case "paragraph": {
        const lines = wrapText(fitText(block.text, regular), regular, width);
        for (const line of lines) {
          room(1);
          draw(line, MARGIN);
          y -= LEADING;
        }
        y -= LEADING / 2;
        break;
      }
      case "table": {
        // Columns: number, invoice date, due date, amount (right-aligned at the margin).
        const columns = [MARGIN, MARGIN + 150, MARGIN + 270];
        const right = PAGE.width - MARGIN;
        const row = (cells: string[], font: PDFFont) => {
          // An invoice number may have 50 characters (spec Invoice): a long one is set smaller,
          // down to 7.5 pt, and what still does not fit goes on to a next line in its column.
          const laid = cells.slice(0, 3).map((cell, i) => {
            const x = columns[i] ?? MARGIN;
            const fitted = fitText(cell, font);
            const limit = (columns[i + 1] ?? right) - x - 8;
            const size = Math.max(
              7.5,
              Math.min(SIZE, (SIZE * limit) / Math.max(1, font.widthOfTextAtSize(fitted, SIZE))),
            );
            return { x, size, lines: wrapText(fitted, font, limit, size) };
          });
          const height = Math.max(1, ...laid.map((c) => c.lines.length));
          room(height);
          for (const cell of laid) {
            cell.lines.forEach((line, k) => {
              page.drawText(line, { x: cell.x, y: y - k * LEADING, size: cell.size, font });
            });
          }
          drawRight(cells[3] ?? "", right, font);
          y -= LEADING * height;
        };
        row(block.header, bold);
        for (const cells of block.rows) row(cells, regular);
        for (const [label, amount] of block.totals) row([label, "", "", amount], bold);
        y -= LEADING / 2;
        break;
      }
    }
  }
  return doc.save();
}
