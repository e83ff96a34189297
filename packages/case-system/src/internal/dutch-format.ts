// Amounts in Dutch notation for letters and handler output. Dates in Dutch notation come from
// @incasso/core (formatDutchLongDate), "today in Amsterdam" from @incasso/wik (amsterdamDate).

/** Cents → `€ 1.250,00` (the form pdf-guard reads back as an amount). */
export function euro(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(cents));
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${sign}€ ${whole},${String(abs % 100).padStart(2, "0")}`;
}
