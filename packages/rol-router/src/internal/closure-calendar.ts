import { dayFromParts, parseIsoDay, weekdayOf, yearOf } from "./dates.js";

const ATW = "Algemene termijnenwet art. 3 lid 1";

/**
 * Days equated to public holidays by Royal Decree (ATW art. 3 lid 3), as listed in
 * ../shared/data/wik/RULES.md § 3.1 with their sources. All are Fridays. Only these years are known.
 */
const EQUATED_DAYS: Record<number, { dates: string[]; source: string }> = {
  2019: { dates: ["2019-05-31", "2019-12-27"], source: "battacs.nl, extra explootvrije dagen 2019" },
  2020: { dates: ["2020-05-22"], source: "besluit van 20 september 2019 (legal-support-office.nl)" },
  2021: { dates: ["2021-05-14"], source: "besluit van 20 september 2019 (legal-support-office.nl)" },
  2022: { dates: ["2022-05-27"], source: "besluit van 20 september 2019 (legal-support-office.nl)" },
  2023: {
    dates: ["2023-04-28", "2023-05-19"],
    source:
      "Besluit gelijkstelling van 28 april 2023, 19 mei 2023, 10 mei 2024, 27 december 2024 en 30 mei 2025",
  },
  2024: {
    dates: ["2024-05-10", "2024-12-27"],
    source:
      "Besluit gelijkstelling van 28 april 2023, 19 mei 2023, 10 mei 2024, 27 december 2024 en 30 mei 2025",
  },
  2025: {
    dates: ["2025-05-30"],
    source:
      "Besluit gelijkstelling van 28 april 2023, 19 mei 2023, 10 mei 2024, 27 december 2024 en 30 mei 2025",
  },
  2026: {
    dates: ["2026-01-02", "2026-05-15"],
    source:
      "Besluit gelijkstelling van 2 januari 2026, 15 mei 2026, 7 mei 2027, 28 april 2028 en 26 mei 2028",
  },
  2027: {
    dates: ["2027-05-07"],
    source:
      "Besluit gelijkstelling van 2 januari 2026, 15 mei 2026, 7 mei 2027, 28 april 2028 en 26 mei 2028",
  },
  2028: {
    dates: ["2028-04-28", "2028-05-26"],
    source:
      "Besluit gelijkstelling van 2 januari 2026, 15 mei 2026, 7 mei 2027, 28 april 2028 en 26 mei 2028",
  },
};

/** Easter Sunday as a day number (anonymous Gregorian algorithm of Meeus/Jones/Butcher). */
export function easterDay(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return dayFromParts(year, month, day);
}

export function closureDayNumbers(year: number): { day: number; naam: string; grondslag: string }[] {
  const easter = easterDay(year);
  // Koningsdag is 27 April, moved to 26 April when the 27th is a Sunday. The shift comes from
  // holiday datasets, not from statute text (RULES.md § 3.1, UNCONFIRMED).
  let kingsDay = dayFromParts(year, 4, 27);
  if (weekdayOf(kingsDay) === 0) kingsDay -= 1;
  const days = [
    { day: dayFromParts(year, 1, 1), naam: "Nieuwjaarsdag", grondslag: ATW },
    { day: easter - 2, naam: "Goede Vrijdag", grondslag: "Algemene termijnenwet art. 3 lid 2" },
    { day: easter + 1, naam: "Tweede Paasdag", grondslag: ATW },
    { day: kingsDay, naam: "Koningsdag", grondslag: ATW },
    { day: dayFromParts(year, 5, 5), naam: "Bevrijdingsdag", grondslag: ATW },
    { day: easter + 39, naam: "Hemelvaartsdag", grondslag: ATW },
    { day: easter + 50, naam: "Tweede Pinksterdag", grondslag: ATW },
    { day: dayFromParts(year, 12, 25), naam: "Eerste Kerstdag", grondslag: ATW },
    { day: dayFromParts(year, 12, 26), naam: "Tweede Kerstdag", grondslag: ATW },
  ];
  for (const date of EQUATED_DAYS[year]?.dates ?? []) {
    const day = parseIsoDay(date) as number;
    days.push({
      day,
      naam: "Gelijkgestelde dag",
      grondslag: `Algemene termijnenwet art. 3 lid 3; ${EQUATED_DAYS[year]?.source}`,
    });
  }
  return days.sort((x, y) => x.day - y.day);
}

const TABLE_FIRST = dayFromParts(1970, 1, 1);
const TABLE_LAST = dayFromParts(2199, 12, 31);
let table: Uint8Array | undefined;

/** One flag per day, 1970-2199, built on first use (about 2,000 closure days; under a millisecond). */
function closureTable(): Uint8Array {
  if (table) return table;
  const t = new Uint8Array(TABLE_LAST - TABLE_FIRST + 1);
  for (let year = 1970; year <= 2199; year++) {
    for (const d of closureDayNumbers(year)) t[d.day - TABLE_FIRST] = 1;
  }
  table = t;
  return t;
}

/** Whether a day number is a closure day (weekends not counted). */
export function isClosureDayNumber(day: number): boolean {
  if (day >= TABLE_FIRST && day <= TABLE_LAST) return closureTable()[day - TABLE_FIRST] === 1;
  return closureDayNumbers(yearOf(day)).some((d) => d.day === day);
}
