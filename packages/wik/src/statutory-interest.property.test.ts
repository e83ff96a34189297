import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { calculateStatutoryInterest } from "./statutory-interest.js";

/*
 * An independent computation of statutory interest, written here from the rules and not from the
 * implementation: it walks day by day with JavaScript `Date` (the implementation uses integer day
 * numbers), takes the rates from the hand-copied rows below (the implementation reads the bundled
 * JSON), and computes exact amounts with BigInt (the implementation uses numbers).
 *
 * Rules (shared RULES.md 2.2-2.5): a day d earns interest when due < d <= end, at the rate in
 * force on d; amounts per run of one rate within one compounding year, rounded half up to cents;
 * a year runs from the first interest day to the day before the same date a year later, and a
 * completed year's interest is added to the base.
 */

// Rows copied by hand from statutory-interest-rates.json (sources there).
const CONSUMER_RATES: ReadonlyArray<readonly [string, number]> = [
  ["2015-01-01", 200], // 2% (Stb. 2014, 491)
  ["2023-01-01", 400],
  ["2023-07-01", 600],
  ["2024-01-01", 700],
  ["2025-01-01", 600],
  ["2026-01-01", 400],
];
const BUSINESS_RATES: ReadonlyArray<readonly [string, number]> = [
  ["2016-07-01", 800], // 8%
  ["2023-01-01", 1050],
  ["2023-07-01", 1200],
  ["2024-01-01", 1250],
  ["2024-07-01", 1225],
  ["2025-01-01", 1115],
  ["2025-07-01", 1015], // also 10.15% from 2026-01-01: the same rate, so no new run
];

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const ms = (date: string) => Date.parse(`${date}T00:00:00Z`);

function rateOn(rates: ReadonlyArray<readonly [string, number]>, date: string): number {
  let rate = -1;
  for (const [from, centiPercent] of rates) if (from <= date) rate = centiPercent;
  if (rate < 0) throw new Error(`no rate for ${date}`);
  return rate;
}

function independentInterest(
  principal: number,
  rates: ReadonlyArray<readonly [string, number]>,
  dueDate: string,
  endDate: string,
): bigint {
  const start = ms(dueDate) + DAY_MS;
  const end = ms(endDate);
  let base = BigInt(principal);
  let total = 0n;
  for (let year = 1, yearStart = start; yearStart <= end; year++) {
    const next = new Date(start);
    next.setUTCFullYear(next.getUTCFullYear() + year); // 29 Feb + 1 year rolls to 1 Mar
    const nextYearStart = next.getTime();
    let yearInterest = 0n;
    let runRate = -1;
    let runDays = 0n;
    const flush = () => {
      if (runDays === 0n) return;
      const numerator = base * BigInt(runRate) * runDays; // base x (rate / 10,000) x days / 365
      yearInterest += (numerator * 2n + 3_650_000n) / 7_300_000n; // half up
      runDays = 0n;
    };
    let day = yearStart;
    for (; day < nextYearStart && day <= end; day += DAY_MS) {
      const rate = rateOn(rates, iso(day));
      if (rate !== runRate) {
        flush();
        runRate = rate;
      }
      runDays++;
    }
    flush();
    total += yearInterest;
    if (day === nextYearStart) base += yearInterest;
    yearStart = nextYearStart;
  }
  return total;
}

describe("statutory interest against an independent computation", () => {
  it("a consumer sample over ten years with many rate changes", () => {
    const sample = { principalCents: 987_654, dueDate: "2016-02-28", endDate: "2026-06-30" };
    const expected = independentInterest(
      sample.principalCents,
      CONSUMER_RATES,
      sample.dueDate,
      sample.endDate,
    );
    expect(calculateStatutoryInterest(sample).amount_cents).toBe(Number(expected));
    expect(expected).toBe(386_398n); // also computed with Python fractions
  });

  it("a business sample across leap years", () => {
    const sample = {
      principalCents: 5_000_000,
      debtorType: "business" as const,
      dueDate: "2019-02-28",
      endDate: "2025-03-01",
    };
    const expected = independentInterest(
      sample.principalCents,
      BUSINESS_RATES,
      sample.dueDate,
      sample.endDate,
    );
    expect(calculateStatutoryInterest(sample).amount_cents).toBe(Number(expected));
    expect(expected).toBe(3_551_592n); // also computed with Python fractions
  });

  const dueDay = (from: string) => fc.integer({ min: 0, max: ms("2026-06-29") / DAY_MS - ms(from) / DAY_MS });

  it("agrees for random consumer cases within the table", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000_000 }),
        dueDay("2014-12-31"),
        fc.integer({ min: 0, max: 4_000 }),
        (principal, offset, length) => {
          const due = ms("2014-12-31") + offset * DAY_MS;
          const end = Math.min(due + length * DAY_MS, ms("2026-06-30"));
          const result = calculateStatutoryInterest({
            principalCents: principal,
            dueDate: iso(due),
            endDate: iso(end),
          });
          expect(result.amount_cents).toBe(
            Number(independentInterest(principal, CONSUMER_RATES, iso(due), iso(end))),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("agrees for random business cases within the table", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000_000 }),
        dueDay("2016-06-30"),
        fc.integer({ min: 0, max: 4_000 }),
        (principal, offset, length) => {
          const due = ms("2016-06-30") + offset * DAY_MS;
          const end = Math.min(due + length * DAY_MS, ms("2026-06-30"));
          const result = calculateStatutoryInterest({
            principalCents: principal,
            debtorType: "business",
            dueDate: iso(due),
            endDate: iso(end),
          });
          expect(result.amount_cents).toBe(
            Number(independentInterest(principal, BUSINESS_RATES, iso(due), iso(end))),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("statutory interest: the whole equals the sum of its parts within one compounding year", () => {
  // Due dates from 2002-08-08 (both series exist) up to the table's horizon; a period of at most
  // 365 days stays within the first compounding year, so nothing is capitalised.
  const firstDue = ms("2002-08-08") / DAY_MS;
  const lastDue = ms("2026-06-01") / DAY_MS;
  const arbitraries = [
    fc.integer({ min: 1, max: 10_000_000_000 }),
    fc.constantFrom("consumer" as const, "business" as const),
    fc.integer({ min: firstDue, max: lastDue }),
    fc.integer({ min: 2, max: 365 }),
  ] as const;

  it("the total is the sum of the periods, and each period computed alone gives the same amount", () => {
    fc.assert(
      fc.property(...arbitraries, (principal, debtorType, due, length) => {
        const dueDate = iso(due * DAY_MS);
        const endDate = iso((due + length) * DAY_MS);
        const whole = calculateStatutoryInterest({ principalCents: principal, debtorType, dueDate, endDate });
        expect(whole.days).toBe(length);
        expect(whole.periods.reduce((sum, p) => sum + p.days, 0)).toBe(length);
        expect(whole.periods.reduce((sum, p) => sum + p.amount_cents, 0)).toBe(whole.amount_cents);
        for (const period of whole.periods) {
          const alone = calculateStatutoryInterest({
            principalCents: principal,
            debtorType,
            dueDate: iso(ms(period.from) - DAY_MS),
            endDate: period.to,
          });
          expect(alone.amount_cents).toBe(period.amount_cents);
          expect(alone.rate_percent).toBe(period.rate_percent);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("split at any day, the two parts add up to the whole (exactly at a period edge, else within one cent of rounding)", () => {
    fc.assert(
      fc.property(
        ...arbitraries,
        fc.double({ min: 0, max: 1, noNaN: true }),
        (principal, debtorType, due, length, at) => {
          const split = due + 1 + Math.floor(at * (length - 1)); // due < split < due + length
          const input = { principalCents: principal, debtorType };
          const whole = calculateStatutoryInterest({
            ...input,
            dueDate: iso(due * DAY_MS),
            endDate: iso((due + length) * DAY_MS),
          });
          const first = calculateStatutoryInterest({
            ...input,
            dueDate: iso(due * DAY_MS),
            endDate: iso(split * DAY_MS),
          });
          const second = calculateStatutoryInterest({
            ...input,
            dueDate: iso(split * DAY_MS),
            endDate: iso((due + length) * DAY_MS),
          });
          expect(first.days + second.days).toBe(whole.days);
          const atEdge = whole.periods.some((p) => p.to === iso(split * DAY_MS));
          const difference = whole.amount_cents - (first.amount_cents + second.amount_cents);
          if (atEdge) expect(difference).toBe(0);
          else expect(Math.abs(difference)).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 500 },
    );
  });
});
