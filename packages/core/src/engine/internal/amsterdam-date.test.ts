import { describe, expect, it } from "vitest";
import { amsterdamDate } from "./amsterdam-date.js";
import { metadataNote } from "./metadata-note.js";

describe("engine helpers", () => {
  it("takes the calendar date in the Netherlands, across midnight and DST", () => {
    expect(amsterdamDate(new Date("2026-11-21T22:59:59Z"))).toBe("2026-11-21");
    expect(amsterdamDate(new Date("2026-11-21T23:00:00Z"))).toBe("2026-11-22"); // CET, UTC+1
    expect(amsterdamDate(new Date("2026-07-01T21:59:59Z"))).toBe("2026-07-01");
    expect(amsterdamDate(new Date("2026-07-01T22:00:00Z"))).toBe("2026-07-02"); // CEST, UTC+2
  });

  it("writes metadata as a note in the order sent, or none", () => {
    expect(metadataNote("ord_0123456789abcdef", { b: "2", a: "1" })).toBe(
      "Metadata bij opdracht ord_0123456789abcdef:\nb: 2\na: 1",
    );
    expect(metadataNote("ord_0123456789abcdef", {})).toBeNull();
  });
});
