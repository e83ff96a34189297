const EURO = new Intl.NumberFormat("nl-NL", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const TIME = new Intl.DateTimeFormat("nl-NL", {
  timeZone: "Europe/Amsterdam",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});
const DAY = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Amsterdam",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/**
 * Euro cents in Dutch notation: the euro sign, a space, dots between thousands and a decimal comma.
 *
 * @example
 * formatEuro(123456); // "€ 1.234,56"
 * formatEuro(-500); // "€ -5,00"
 */
export function formatEuro(cents: number): string {
  return `€ ${EURO.format(cents / 100)}`;
}

/**
 * A date (`YYYY-MM-DD`, or a moment, taken in Europe/Amsterdam) in Dutch notation `DD-MM-YYYY`.
 *
 * @example
 * formatDate("2026-11-25"); // "25-11-2026"
 * formatDate(new Date("2026-11-25T23:30:00Z")); // "26-11-2026"
 */
export function formatDate(value: string | Date): string {
  const iso =
    typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : DAY.format(new Date(value));
  const [y, m, d] = iso.split("-");
  return `${d}-${m}-${y}`;
}

/**
 * A moment's time of day in Europe/Amsterdam, `HH:MM`.
 *
 * @example
 * formatTime(new Date("2026-11-25T20:15:00Z")); // "21:15"
 */
export function formatTime(value: string | Date): string {
  return TIME.format(new Date(value));
}

/**
 * A moment as `DD-MM-YYYY HH:MM` in Europe/Amsterdam.
 *
 * @example
 * formatMoment("2026-11-25T20:15:00.000Z"); // "25-11-2026 21:15"
 */
export function formatMoment(value: string | Date): string {
  return `${formatDate(value instanceof Date ? value : new Date(value))} ${formatTime(value)}`;
}

/**
 * An amount typed in Dutch or plain notation ("1.234,56", "1234.56", "€ 12") as euro cents, or
 * undefined when it is not one.
 *
 * @example
 * parseEuro("1.234,56"); // 123456
 * parseEuro("12"); // 1200
 * parseEuro("twaalf"); // undefined
 */
export function parseEuro(text: string): number | undefined {
  let t = text.replace(/[€\s]/g, "");
  if (t.includes(",")) t = t.replace(/\./g, "").replace(",", ".");
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(t)) return undefined;
  return Math.round(Number(t) * 100);
}

/**
 * A date typed as `DD-MM-YYYY` (or `YYYY-MM-DD`, as a date input sends it) as `YYYY-MM-DD`, or
 * undefined when it is not a real date.
 *
 * @example
 * parseDutchDate("25-11-2026"); // "2026-11-25"
 * parseDutchDate("31-02-2026"); // undefined
 */
export function parseDutchDate(text: string): string | undefined {
  const t = text.trim();
  const dutch = /^(\d{2})-(\d{2})-(\d{4})$/.exec(t);
  const iso = dutch ? `${dutch[3]}-${dutch[2]}-${dutch[1]}` : t;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return undefined;
  const d = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === iso ? iso : undefined;
}
