/**
 * Options of {@link normaliseFilename}.
 *
 * @example
 * const options: NormaliseFilenameOptions = { maxLength: 120, fallback: "bijlage-1.pdf" };
 */
export interface NormaliseFilenameOptions {
  /**
   * Longest result in characters (Unicode code points), the unit zod's `.max` counts strings in and
   * that JSON Schema's `maxLength` defines, so the result passes the schema's own limit (decision
   * pdf-guard-field-codes). Default 120 (spec Attachment: filename max 120).
   */
  maxLength?: number;
  /** Name used when nothing usable is left. Default `bijlage.pdf`. */
  fallback?: string;
}

// Control characters (Cc: C0, DEL, C1) and format characters (Cf), which include the bidirectional
// overrides that make "factuur\u202Efdp.exe" display as "factuurexe.pdf" (Unicode TR 36 §2.2 on
// spoofing), zero-width characters and the byte order mark.
const CONTROL = /[\p{Cc}\p{Cf}]/gu;
// Characters Windows forbids in names; a stored name should survive being written to any disk.
const RESERVED = /[<>:"|?*]/g;
// Names Windows reserves for devices, also when followed by an extension ("NUL.tar.gz" is NUL):
// Microsoft, "Naming Files, Paths, and Namespaces" (learn.microsoft.com/windows/win32/fileio/naming-a-file).
const DEVICE = /^(?:CON|PRN|AUX|NUL|COM[0-9\u00B9\u00B2\u00B3]|LPT[0-9\u00B9\u00B2\u00B3])$/i;

/**
 * Normalises a client's filename for storage (spec Attachment: "the stored name is normalised to
 * end in .pdf when needed"): Unicode NFC; path parts removed (both `/` and `\`); control and
 * direction-override characters removed; characters Windows reserves replaced by `_`; runs of
 * whitespace collapsed; leading dots and trailing dots or spaces trimmed; the extension made
 * `.pdf` (appended when missing, lower-cased when `.PDF`); a Windows device name (CON, PRN, AUX,
 * NUL, COM0–9, LPT0–9, also before a dot) prefixed with `_`; the stem shortened, never inside a
 * surrogate pair, so the whole name fits in `maxLength` code points. The content decides what the
 * file is, never this name.
 *
 * @example
 * normaliseFilename("C:\\Users\\x\\Factuur 2026-001.PDF"); // "Factuur 2026-001.pdf"
 * normaliseFilename("../../etc/passwd"); // "passwd.pdf"
 * normaliseFilename("\u0000"); // "bijlage.pdf"
 * normaliseFilename("CON.pdf"); // "_CON.pdf"
 */
export function normaliseFilename(name: string, options: NormaliseFilenameOptions = {}): string {
  const maxLength = options.maxLength ?? 120;
  const fallback = options.fallback ?? "bijlage.pdf";
  const base = name.normalize("NFC").replace(CONTROL, "").split(/[/\\]/).pop() ?? "";
  let stem = base
    .replace(RESERVED, "_")
    .replace(/\s+/g, " ")
    .replace(/[.\s]+$/, "");
  // The extension is taken off before leading dots are trimmed, so ".pdf" leaves nothing.
  if (/\.pdf$/i.test(stem)) stem = stem.slice(0, -4);
  stem = stem.replace(/^[.\s]+/, "").replace(/[.\s]+$/, "");
  if (stem.length === 0) return fallback;
  const room = Math.max(1, maxLength - ".pdf".length);
  const points = Array.from(stem);
  if (points.length > room) {
    stem = points
      .slice(0, room)
      .join("")
      .replace(/[.\s]+$/, "");
    if (stem.length === 0) return fallback;
  }
  // Checked after shortening, which could leave a device name; the names are ASCII or Latin-1, so
  // cutting the prefixed stem by code units counts code points there.
  if (DEVICE.test(stem.split(".")[0] ?? "")) stem = `_${stem}`.slice(0, room);
  return `${stem}.pdf`;
}
