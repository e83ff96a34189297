// Dutch formatting for letters and handler output.

const MONTH_DATE = new Intl.DateTimeFormat("nl-NL", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

/** `2026-10-01` → `1 oktober 2026`. */
export function dutchDate(isoDate: string): string {
  return MONTH_DATE.format(new Date(`${isoDate}T00:00:00Z`));
}

/** Cents → `€ 1.250,00` (the form pdf-guard reads back as an amount). */
export function euro(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(cents));
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${sign}€ ${whole},${String(abs % 100).padStart(2, "0")}`;
}

/**
 * The calendar day of an instant in the Netherlands, `YYYY-MM-DD`: @incasso/wik's one function
 * for "today in Amsterdam".
 */
export { amsterdamDate as amsterdamDay } from "@incasso/wik";
