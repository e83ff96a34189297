import { describe, expect, it } from "vitest";
import { linesFromWords, looksScanned } from "./ocr-pages.mjs";

const word = (text: string, x0: number, y0: number, x1: number, y1: number) => ({
  text,
  bbox: { x0, y0, x1, y1 },
});
const line = (...words: ReturnType<typeof word>[]) => ({
  words,
  bbox: {
    x0: Math.min(...words.map((w) => w.bbox.x0)),
    y0: Math.min(...words.map((w) => w.bbox.y0)),
    x1: Math.max(...words.map((w) => w.bbox.x1)),
    y1: Math.max(...words.map((w) => w.bbox.y1)),
  },
});

describe("OCR text", () => {
  it("puts a label and its amount from separate blocks (columns) on one line, split by a tab", () => {
    const labels = {
      paragraphs: [
        {
          lines: [
            line(word("Subtotaal", 100, 1000, 260, 1030)),
            line(
              word("Totaal", 100, 1050, 200, 1080),
              word("te", 210, 1050, 240, 1080),
              word("betalen", 250, 1050, 380, 1080),
            ),
          ],
        },
      ],
    };
    const amounts = {
      paragraphs: [
        {
          lines: [
            line(word("€", 900, 1002, 920, 1031), word("1.000,00", 930, 1002, 1060, 1031)),
            line(word("€", 900, 1052, 920, 1081), word("1.210,00", 930, 1052, 1060, 1081)),
          ],
        },
      ],
    };
    const header = { paragraphs: [{ lines: [line(word("FACTUUR", 100, 400, 300, 440))] }] };
    expect(linesFromWords([labels, amounts, header])).toBe(
      "FACTUUR\nSubtotaal\t€ 1.000,00\nTotaal te betalen\t€ 1.210,00",
    );
  });

  it("takes a page with a few stray characters for a scan, and a page of text for none", () => {
    expect(looksScanned("")).toBe(true);
    expect(looksScanned(" 1 / 3 ")).toBe(true);
    expect(looksScanned("Factuur F-2026-0042\nTotaal € 121,00")).toBe(false);
  });
});
