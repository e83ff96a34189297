import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { hasBytesBeforeHeader, scanActiveContent, scanNames } from "./scan-active-content.mjs";

const bytes = (text: string) => new TextEncoder().encode(text);
const names = (text: string) => {
  const found = new Set<string>();
  scanNames(bytes(text), found);
  return [...found].sort();
};

describe("scanNames", () => {
  it("finds the names of active content as written", () => {
    expect(names("<< /S /JavaScript /JS (x) >>")).toEqual(["javascript"]);
    expect(names("<< /S/Launch/F (calc.exe) >>")).toEqual(["launch"]);
    expect(names("<< /Names << /EmbeddedFiles 3 0 R >> >>")).toEqual(["embedded_file"]);
    expect(names("<< /Type /EmbeddedFile /Length 5 >>")).toEqual(["embedded_file"]);
  });

  it("decodes #xx escapes in either case before comparing (ISO 32000-2 §7.3.5)", () => {
    expect(names("<< /S /J#61vaScript >>")).toEqual(["javascript"]);
    expect(names("<< /S /#4Caun#63#68 >>")).toEqual(["launch"]);
    expect(names("<< /S /Launc#68 >>")).toEqual(["launch"]);
    expect(names("<< /Embedded#46ile#73 1 0 R >>")).toEqual(["embedded_file"]);
  });

  it("matches whole names only", () => {
    expect(names("<< /JavaScriptX 1 /XLaunch 2 /JS (x) /EmbeddedFileZ 3 /J#6 >>")).toEqual([]);
    expect(names("<< /Type /Page /Contents 4 0 R >>")).toEqual([]);
  });

  it("returns where each /ObjStm name ends", () => {
    const text = "1 0 obj << /Type /ObjStm /N 1 >> stream";
    const found = new Set<string>();
    expect(scanNames(bytes(text), found)).toEqual([text.indexOf("/ObjStm") + "/ObjStm".length]);
    expect(found.size).toBe(0);
  });
});

describe("hasBytesBeforeHeader", () => {
  it("is true for anything but PDF white space before %PDF-", () => {
    expect(hasBytesBeforeHeader(bytes("<html><body></body></html>\n%PDF-1.7\n"))).toBe(true);
    expect(hasBytesBeforeHeader(bytes("\uFEFF%PDF-1.7\n"))).toBe(true);
    expect(hasBytesBeforeHeader(bytes(" \t\r\n\f\0%PDF-1.7\n"))).toBe(false);
    expect(hasBytesBeforeHeader(bytes("%PDF-1.7\n<html>"))).toBe(false);
  });

  it("looks only where readers look for the header: the first 1024 bytes", () => {
    expect(hasBytesBeforeHeader(bytes(`${"x".repeat(1019)}%PDF-1.7`))).toBe(true);
    expect(hasBytesBeforeHeader(bytes(`${"x".repeat(1020)}%PDF-1.7`))).toBe(false);
  });
});

describe("scanActiveContent", () => {
  const objectStream = (inside: string) => {
    const data = deflateSync(Buffer.from(inside, "latin1"));
    return Buffer.concat([
      Buffer.from(
        `%PDF-1.7\n5 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${data.length} >>\nstream\r\n`,
      ),
      data,
      Buffer.from("\r\nendstream\nendobj\n%%EOF\n"),
    ]);
  };

  it("finds names inside Flate-compressed object streams", async () => {
    const file = objectStream("6 0 << /S /Launch /F (calc.exe) >> << /S /J#61vaScript >>");
    expect(Buffer.from(file).includes("Launch")).toBe(false);
    expect([...(await scanActiveContent(file, { maxInflatedBytes: 1 << 20 }))].sort()).toEqual([
      "javascript",
      "launch",
    ]);
  });

  it("inflates no more than its budget", async () => {
    const file = objectStream(`${" ".repeat(4096)}<< /S /Launch >>`);
    expect([...(await scanActiveContent(file, { maxInflatedBytes: 4096 }))]).toEqual([]);
    expect([...(await scanActiveContent(file, { maxInflatedBytes: 8192 }))]).toEqual(["launch"]);
  });

  it("skips an object stream that does not inflate", async () => {
    const file = bytes("%PDF-1.7\n<< /Type /ObjStm >>\nstream\nnot flate data\nendstream\n%%EOF\n");
    expect([...(await scanActiveContent(file, { maxInflatedBytes: 1 << 20 }))]).toEqual([]);
  });

  it("reports bytes before the header with the names", async () => {
    const file = bytes("<html></html>\n%PDF-1.7\n<< /S /JavaScript >>\n%%EOF\n");
    expect([...(await scanActiveContent(file, { maxInflatedBytes: 1 << 20 }))].sort()).toEqual([
      "bytes_before_header",
      "javascript",
    ]);
  });
});
