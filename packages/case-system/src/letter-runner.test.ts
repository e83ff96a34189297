import { randomBytes } from "node:crypto";
import { createOrderEngine, issueApiKey, principalOfKey, submitOrder } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type BuiltInCaseSystem, createBuiltInCaseSystem } from "./built-in-case-system.js";
import { createCaseHandler } from "./case-handler.js";
import { CaseSystemError } from "./errors.js";
import { claimLetterJobs, failLetterJob } from "./internal/letter-job-queries.js";
import { businessDebtor, caseOrderInput, withItems } from "./internal/testing/case-order-input.js";
import { countingDatabase } from "./internal/testing/counting-database.js";
import { giveLetterDetails } from "./internal/testing/letter-details.js";
import { saveLetterDetails } from "./letter-details.js";
import { LetterJobListSchema, LetterJobViewSchema } from "./letter-job-schemas.js";
import { createLetterRunner, type LetterRunnerLogger } from "./letter-runner.js";
import { openCaseSystemStore } from "./open-case-system-store.js";

// The 14-day letter of a pre-incasso order is made from a durable job, off the request (decision
// case-system-wik-letter-jobs): recorded when the order is placed, made once, taken over after a
// runner's crash, retried after a failure, and shown to the operator when it fails for good.
// On PGlite, and on PostgreSQL when TEST_DATABASE_URL is set (a schema of its own, dropped after).

const targets: { name: string; open: () => Promise<{ store: SqlStore; drop: () => Promise<void> }> }[] = [
  { name: "PGlite", open: async () => ({ store: await openCaseSystemStore(), drop: async () => {} }) },
];
const url = process.env.TEST_DATABASE_URL;
if (url) {
  targets.push({
    name: "PostgreSQL",
    open: async () => {
      const schema = `letters_${randomBytes(6).toString("hex")}`;
      const store = await openCaseSystemStore({ databaseUrl: url, schema });
      return {
        store,
        drop: () => store.database.query(`DROP SCHEMA ${schema} CASCADE`).then(() => undefined),
      };
    },
  });
}

/** A logger that keeps what it was told. */
function recordingLogger(): LetterRunnerLogger & { lines: [string, string, Record<string, unknown>][] } {
  const lines: [string, string, Record<string, unknown>][] = [];
  return {
    lines,
    warn: (message, fields) => lines.push(["warn", message, fields ?? {}]),
    error: (message, fields) => lines.push(["error", message, fields ?? {}]),
  };
}

/** A clock the test moves. */
function testClock(start = new Date()) {
  let t = start.getTime();
  return {
    now: () => new Date(t),
    advance: (seconds: number) => {
      t += seconds * 1000;
    },
  };
}

for (const target of targets) {
  describe(`letter jobs on ${target.name}`, () => {
    let store: SqlStore;
    let drop: () => Promise<void>;
    let key: Awaited<ReturnType<typeof issueApiKey>>;
    let cases: BuiltInCaseSystem;
    let n = 0;
    beforeAll(async () => {
      ({ store, drop } = await target.open());
      key = await issueApiKey(store, { organisation: "Brieven BV", mode: "live" });
      await giveLetterDetails(store.database, key.record.organisationId);
      cases = createBuiltInCaseSystem({ store });
    });
    afterEach(async () => {
      // Each test works on its own orders; no job of one is left for the next.
      await store.database.query("DELETE FROM case_letter_jobs");
    });
    afterAll(async () => {
      await drop();
      await store.close();
    });

    async function place(
      type: "pre-incasso" | "incasso" = "pre-incasso",
      options: { amountCents?: number; now?: Date; caseSystem?: BuiltInCaseSystem } = {},
    ): Promise<{ orderId: string; caseNumber: string }> {
      n++;
      const amountCents = options.amountCents ?? 100_000;
      const engine = createOrderEngine({
        store,
        caseSystem: options.caseSystem ?? cases,
      });
      const order = await submitOrder(
        engine,
        principalOfKey(key.record),
        {
          type,
          reference: `BR-${n}`,
          debtors: [
            {
              type: "business",
              company_name: "Voorbeeld B.V.",
              customer_number: `BR-${randomBytes(4).toString("hex")}`,
              address: { street: "Teststraat", house_number: "2", postal_code: "9999 ZZ", city: "Testdorp" },
            },
          ],
          invoices: [
            {
              invoice_number: `F-${n}`,
              invoice_date: "2026-10-01",
              due_date: "2026-10-15",
              amount_cents: amountCents,
            },
          ],
        },
        options.now ? { now: options.now } : {},
      );
      return { orderId: order.id, caseNumber: order.case.case_number as string };
    }

    async function lettersOf(caseNumber: string) {
      return (await cases.getCase({ caseNumber }))?.letters ?? [];
    }

    async function letterEvents(caseNumber: string) {
      const { rows } = await store.database.query<{ payload: string }>(
        "SELECT payload FROM webhook_events WHERE type = 'correspondence.sent' AND payload::json->'data'->>'case_number' = $1",
        [caseNumber],
      );
      return rows.map((r) => (JSON.parse(r.payload) as { data: Record<string, unknown> }).data);
    }

    it("placing a pre-incasso order records its job in the placement's own statement; an incasso order records none", async () => {
      // Counted on a database that records every statement: the placement sends its batch (the
      // lock and the placement statement) and nothing else; the job rides in the statement.
      const counting = countingDatabase(store.database);
      const counted = createBuiltInCaseSystem({ store: { database: counting.database } });
      const { orderId, caseNumber } = await place("pre-incasso", { caseSystem: counted });
      expect(counting.seen).toEqual({ statements: 2, transactions: 0, batches: 1 });
      expect(await cases.listLetterJobs({ caseNumber })).toMatchObject([
        { orderId, caseNumber, state: "pending", attempts: 0, leaseOwner: null, lastError: null },
      ]);
      expect(await lettersOf(caseNumber)).toEqual([]);

      const incasso = await place("incasso", { caseSystem: counted });
      expect(counting.seen).toEqual({ statements: 4, transactions: 0, batches: 2 });
      expect(await cases.listLetterJobs({ caseNumber: incasso.caseNumber })).toEqual([]);
    });

    it("records the job when placeOnCase is called without the engine too (open, join, repeats), once", async () => {
      const tag = randomBytes(4).toString("hex");
      const input = (orderId: string, customerNumber: string) =>
        caseOrderInput({
          orderId,
          organisationId: key.record.organisationId,
          creditor: { id: null, name: "Brieven BV" },
          type: "pre-incasso",
          reference: `SEP-${orderId}`,
          debtors: [businessDebtor("Voorbeeld B.V.", customerNumber)],
          at: new Date(),
        });
      const first = input(`ord_${tag}00000001`, `SEP-${tag}`);
      const { caseNumber } = await cases.placeOnCase(withItems(first));
      await cases.placeOnCase(withItems(first)); // a repeat records nothing more
      const second = input(`ord_${tag}00000002`, `SEP-${tag}`);
      expect((await cases.placeOnCase(withItems(second))).caseNumber).toBe(caseNumber);
      await cases.placeOnCase(withItems(second));
      const incasso = { ...input(`ord_${tag}00000003`, `SEP-${tag}`), type: "incasso" as const };
      expect((await cases.placeOnCase(withItems(incasso))).caseNumber).toBe(caseNumber);
      expect((await cases.listLetterJobs({ caseNumber })).map((j) => j.orderId).sort()).toEqual(
        [first.orderId, second.orderId].sort(),
      );
    });

    it("claims a job only once its order is stored, and keeps it however late the order comes", async () => {
      const { orderId, caseNumber } = await place();
      // The order row as if its insert had not happened (a crash between placement and order row):
      // moved aside under another id, and back later.
      await store.database.query("UPDATE orders SET id = 'gone_' || id WHERE id = $1", [orderId]);
      const runner = createLetterRunner({ store, caseSystem: cases, catchUpHours: 0 });
      expect(await runner.runOnce()).toEqual([]);
      expect(await cases.listLetterJobs({ caseNumber })).toMatchObject([
        { orderId, state: "pending", attempts: 0 },
      ]);

      // Two days later, with no retry yet, the catch-up records nothing and the job is still there,
      // passed over by the claim.
      const later = new Date(Date.now() + 49 * 3_600_000);
      const lateRunner = createLetterRunner({ store, caseSystem: cases, catchUpHours: 24, now: () => later });
      expect(await lateRunner.catchUp()).toBe(0);
      expect(await lateRunner.runOnce()).toEqual([]);
      expect(await cases.listLetterJobs({ caseNumber })).toMatchObject([
        { orderId, state: "pending", attempts: 0 },
      ]);

      // The client's retry then stores the order (same order id): the next claim makes the letter.
      await store.database.query("UPDATE orders SET id = $1 WHERE id = 'gone_' || $1", [orderId]);
      expect((await lateRunner.runOnce()).map((r) => [r.orderId, r.outcome, r.attempt])).toEqual([
        [orderId, "made", 1],
      ]);
      expect((await lettersOf(caseNumber)).map((l) => l.orderId)).toEqual([orderId]);
      expect(await cases.listLetterJobs({ caseNumber })).toEqual([]);
    });

    it("makes each letter once, whether the runner runs twice, two runners run at once, or the letter is made twice at once", async () => {
      const orders = [await place(), await place(), await place()];
      const logger = recordingLogger();
      const one = createLetterRunner({ store, caseSystem: cases, logger, catchUpHours: 0 });
      const two = createLetterRunner({ store, caseSystem: cases, logger, catchUpHours: 0 });
      const [a, b] = await Promise.all([one.runOnce(), two.runOnce()]);
      const results = [...a, ...b];
      expect(results.map((r) => r.orderId).sort()).toEqual(orders.map((o) => o.orderId).sort());
      expect(
        results.every((r) => r.outcome === "made" && r.attempt === 1 && r.letterId?.startsWith("let_")),
      ).toBe(true);
      expect(await one.runOnce()).toEqual([]);
      for (const o of orders) {
        expect((await lettersOf(o.caseNumber)).map((l) => l.orderId)).toEqual([o.orderId]);
        expect(await letterEvents(o.caseNumber)).toEqual([
          {
            order_id: o.orderId,
            case_number: o.caseNumber,
            reference: expect.any(String),
            case_event: "case_letters",
          },
        ]);
      }
      expect(await cases.listLetterJobs()).toEqual([]);

      // The same order's letter made twice at once (two runners, one lease run out): one letter, one event.
      const both = await place();
      const made = await Promise.all([
        cases.makeOrderLetter({ caseNumber: both.caseNumber, orderId: both.orderId }),
        cases.makeOrderLetter({ caseNumber: both.caseNumber, orderId: both.orderId }),
      ]);
      expect(made.map((m) => m.made).sort()).toEqual([false, true]);
      expect(made[0]?.letterId).toBe(made[1]?.letterId);
      expect((await lettersOf(both.caseNumber)).map((l) => l.id)).toEqual([made[0]?.letterId]);
      expect(await letterEvents(both.caseNumber)).toHaveLength(1);
      expect(await cases.listLetterJobs({ caseNumber: both.caseNumber })).toEqual([]);
      expect(logger.lines).toEqual([]);
    });

    it("takes a job over when the runner that claimed it stopped, once its lease has run out", async () => {
      const { orderId, caseNumber } = await place();
      const clock = testClock();
      // A runner claims the job and dies before making the letter.
      const [claimed] = await claimLetterJobs(store.database, {
        owner: "ltr_crashed",
        now: clock.now(),
        leaseSeconds: 60,
        limit: 10,
        maxAttempts: 6,
      });
      expect(claimed).toMatchObject({ orderId, state: "running", attempts: 1, leaseOwner: "ltr_crashed" });
      const survivor = createLetterRunner({ store, caseSystem: cases, now: clock.now, catchUpHours: 0 });
      expect(await survivor.runOnce()).toEqual([]);
      clock.advance(59);
      expect(await survivor.runOnce()).toEqual([]);
      clock.advance(1);
      expect(await survivor.runOnce()).toMatchObject([
        { orderId, attempt: 2, outcome: "made", recorded: true },
      ]);
      expect(await lettersOf(caseNumber)).toHaveLength(1);
      // The dead runner's late failure changes nothing: the job is done.
      expect(
        await failLetterJob(store.database, {
          orderId,
          owner: "ltr_crashed",
          attempt: 1,
          now: clock.now(),
          error: "late",
          nextAttemptAt: clock.now(),
        }),
      ).toBe(false);
      expect(await cases.listLetterJobs({ caseNumber })).toEqual([]);

      // A runner that dies during the last attempt: the job fails instead of being tried forever.
      const last = await place();
      await claimLetterJobs(store.database, {
        owner: "ltr_crashed",
        now: clock.now(),
        leaseSeconds: 60,
        limit: 10,
        maxAttempts: 1,
      });
      clock.advance(60);
      const strict = createLetterRunner({
        store,
        caseSystem: cases,
        now: clock.now,
        retrySeconds: [],
        catchUpHours: 0,
      });
      expect(await strict.runOnce()).toEqual([]);
      expect(await cases.listLetterJobs({ caseNumber: last.caseNumber })).toMatchObject([
        {
          orderId: last.orderId,
          state: "failed",
          attempts: 1,
          dueAt: null,
          leaseOwner: null,
          lastError: "the letter runner stopped during the last attempt",
        },
      ]);
      expect(await lettersOf(last.caseNumber)).toEqual([]);
    });

    it("tries a failed attempt again after the wait, and reports it", async () => {
      const { orderId, caseNumber } = await place();
      const clock = testClock();
      let failures = 1;
      const flaky: BuiltInCaseSystem = {
        ...cases,
        makeOrderLetter: (input) => {
          if (failures-- > 0) return Promise.reject(new Error("connection terminated unexpectedly"));
          return cases.makeOrderLetter(input);
        },
      };
      const logger = recordingLogger();
      const runner = createLetterRunner({
        store,
        caseSystem: flaky,
        now: clock.now,
        logger,
        catchUpHours: 0,
      });
      const failedAt = clock.now();
      const due = new Date(failedAt.getTime() + 30_000);
      expect(await runner.runOnce()).toEqual([
        {
          orderId,
          caseNumber,
          attempt: 1,
          outcome: "retry",
          letterId: null,
          error: "connection terminated unexpectedly",
          nextAttemptAt: due,
          recorded: true,
        },
      ]);
      expect(await cases.listLetterJobs({ caseNumber })).toMatchObject([
        {
          state: "pending",
          attempts: 1,
          dueAt: due,
          leaseOwner: null,
          lastError: "connection terminated unexpectedly",
        },
      ]);
      expect(logger.lines).toEqual([
        [
          "warn",
          "14-day letter attempt failed; it is tried again",
          {
            orderId,
            caseNumber,
            attempt: 1,
            error: "connection terminated unexpectedly",
            nextAttemptAt: due.toISOString(),
          },
        ],
      ]);
      clock.advance(29);
      expect(await runner.runOnce()).toEqual([]);
      clock.advance(1);
      expect(await runner.runOnce()).toMatchObject([{ orderId, attempt: 2, outcome: "made" }]);
      expect(await lettersOf(caseNumber)).toHaveLength(1);
      expect(await cases.listLetterJobs({ caseNumber })).toEqual([]);
    });

    it("fails a job after its last attempt, or at once when the case refuses the letter, and shows it until it is retried", async () => {
      const broken = await place();
      const clock = testClock();
      const logger = recordingLogger();
      const alwaysFailing: BuiltInCaseSystem = {
        ...cases,
        makeOrderLetter: () => Promise.reject(new Error("out of memory")),
      };
      const runner = createLetterRunner({
        store,
        caseSystem: alwaysFailing,
        now: clock.now,
        retrySeconds: [10],
        logger,
        catchUpHours: 0,
      });
      expect((await runner.runOnce()).map((r) => r.outcome)).toEqual(["retry"]);
      clock.advance(10);
      expect(await runner.runOnce()).toMatchObject([
        {
          orderId: broken.orderId,
          attempt: 2,
          outcome: "failed",
          error: "out of memory",
          nextAttemptAt: null,
        },
      ]);
      clock.advance(3600);
      expect(await runner.runOnce()).toEqual([]);
      expect(logger.lines.map(([level, message]) => [level, message])).toEqual([
        ["warn", "14-day letter attempt failed; it is tried again"],
        [
          "error",
          "14-day letter failed for good; see incasso cases letter-jobs --failed, then incasso cases retry-letter",
        ],
      ]);
      const failedJob = {
        orderId: broken.orderId,
        caseNumber: broken.caseNumber,
        state: "failed",
        attempts: 2,
        dueAt: null,
        leaseOwner: null,
        lastError: "out of memory",
      };
      expect(await cases.listLetterJobs({ state: "failed" })).toMatchObject([failedJob]);

      // Paid in full before the letter: nothing to remind of, failed at the first attempt.
      const paid = await place("pre-incasso", { amountCents: 50_000 });
      await cases.bookPayment({
        caseNumber: paid.caseNumber,
        amountCents: 50_000,
        paymentDate: "2026-11-01",
      });
      const real = createLetterRunner({ store, caseSystem: cases, now: clock.now, logger, catchUpHours: 0 });
      expect(await real.runOnce()).toMatchObject([
        {
          orderId: paid.orderId,
          attempt: 1,
          outcome: "failed",
          error: `nothing_outstanding: The payments on case ${paid.caseNumber} cover its principal; there is nothing to remind of.`,
        },
      ]);
      expect((await cases.listLetterJobs({ state: "failed" })).map((j) => j.orderId)).toEqual([
        paid.orderId,
        broken.orderId,
      ]);

      // The operator repairs the cause and retries: due now, a fresh count, made by a runner.
      const retried = await cases.retryLetterJob({ orderId: broken.orderId, at: clock.now() });
      expect(retried).toMatchObject({
        state: "pending",
        attempts: 0,
        dueAt: clock.now(),
        lastError: "out of memory",
      });
      expect(await real.runOnce()).toMatchObject([{ orderId: broken.orderId, attempt: 1, outcome: "made" }]);
      expect(await lettersOf(broken.caseNumber)).toHaveLength(1);
      await expect(cases.retryLetterJob({ orderId: broken.orderId })).rejects.toEqual(
        new CaseSystemError("letter_job_not_found", `Order ${broken.orderId} has no letter job.`),
      );
      // A job a runner holds right now is not retried under it.
      const held = await place();
      await claimLetterJobs(store.database, {
        owner: "ltr_busy",
        now: clock.now(),
        leaseSeconds: 60,
        limit: 10,
        maxAttempts: 6,
      });
      await expect(cases.retryLetterJob({ orderId: held.orderId, at: clock.now() })).rejects.toMatchObject({
        code: "letter_job_running",
      });
    });

    it("fails a job at once when the organisation's letter details have no IBAN, warns what to do, and makes it once they are set, without a retry", async () => {
      const organisationId = key.record.organisationId;
      await saveLetterDetails(store.database, organisationId, { iban: null }, new Date());
      try {
        const order = await place();
        const logger = recordingLogger();
        const runner = createLetterRunner({ store, caseSystem: cases, logger, catchUpHours: 0 });
        const reason = `letter_details_missing: The letter details of the organisation of case ${order.caseNumber} have no IBAN, so the letter would not say where to pay; set them with: incasso letter-details set --organisation NAME --iban IBAN.`;
        expect(await runner.runOnce()).toMatchObject([
          {
            orderId: order.orderId,
            attempt: 1,
            outcome: "failed",
            letterId: null,
            error: reason,
            nextAttemptAt: null,
          },
        ]);
        expect(await lettersOf(order.caseNumber)).toEqual([]);
        expect(await cases.listLetterJobs({ caseNumber: order.caseNumber })).toMatchObject([
          { orderId: order.orderId, state: "failed", attempts: 1, dueAt: null, lastError: reason },
        ]);
        // A step for the operator, not a fault: a warning, no error.
        expect(logger.lines.map(([level, message]) => [level, message])).toEqual([
          [
            "warn",
            "14-day letter waits for the organisation's letter details; it is made once they are set with incasso letter-details set --organisation NAME --iban IBAN",
          ],
        ]);
        await saveLetterDetails(
          store.database,
          organisationId,
          { iban: "NL91 ABNA 0417 1643 00" },
          new Date(),
        );
        // Setting the IBAN made the job due again with a fresh count, no retry by hand.
        expect(await cases.listLetterJobs({ caseNumber: order.caseNumber })).toMatchObject([
          { orderId: order.orderId, state: "pending", attempts: 0, lastError: reason },
        ]);
        expect(await runner.runOnce()).toMatchObject([{ orderId: order.orderId, outcome: "made" }]);
        expect(await lettersOf(order.caseNumber)).toHaveLength(1);
      } finally {
        await saveLetterDetails(store.database, organisationId, { iban: "NL91ABNA0417164300" }, new Date());
      }
    });

    it("records the jobs of stored pre-incasso orders that have none (a crash before the job was recorded)", async () => {
      // Orders of this test are placed ten days ahead, so the look back sees none of the other tests'.
      const clock = testClock(new Date(Date.now() + 10 * 86_400_000));
      const lost = await place("pre-incasso", { now: clock.now() });
      const made = await place("pre-incasso", { now: clock.now() });
      const incasso = await place("incasso", { now: clock.now() });
      const unstored = await place("pre-incasso", { now: clock.now() });
      await cases.makeOrderLetter({ caseNumber: made.caseNumber, orderId: made.orderId });
      // The crash: the order is stored, its job never was.
      await store.database.query("DELETE FROM case_letter_jobs WHERE order_id = $1", [lost.orderId]);
      // An order placed on its case whose row was never stored (the request failed after placing
      // it) gets none: the client's retry with the same order id stores it and records the job.
      await store.database.query("DELETE FROM case_letter_jobs WHERE order_id = $1", [unstored.orderId]);
      await store.database.query("DELETE FROM orders WHERE id = $1", [unstored.orderId]);
      clock.advance(60);
      const runner = createLetterRunner({ store, caseSystem: cases, now: clock.now, catchUpHours: 1 });
      expect(await runner.catchUp()).toBe(1);
      expect(await cases.listLetterJobs()).toMatchObject([
        {
          orderId: lost.orderId,
          caseNumber: lost.caseNumber,
          state: "pending",
          attempts: 0,
          dueAt: clock.now(),
        },
      ]);
      expect(await runner.catchUp()).toBe(0);
      expect(await runner.runOnce()).toMatchObject([{ orderId: lost.orderId, outcome: "made" }]);
      expect(await runner.catchUp()).toBe(0);
      expect(await lettersOf(incasso.caseNumber)).toEqual([]);
      expect(await lettersOf(unstored.caseNumber)).toEqual([]);
      // Only as far back as asked: the same gap two hours later is out of a one-hour look.
      await store.database.query("DELETE FROM case_letters WHERE order_id = $1", [lost.orderId]);
      clock.advance(2 * 3600);
      expect(await runner.catchUp()).toBe(0);
      const further = createLetterRunner({ store, caseSystem: cases, now: clock.now, catchUpHours: 3 });
      expect(await further.catchUp()).toBe(1);
    });

    it("lists and retries letter jobs as wire objects for the operator", async () => {
      const { orderId, caseNumber } = await place();
      const clock = testClock();
      const handler = createCaseHandler(cases, { now: clock.now });
      const failing = createLetterRunner({
        store,
        caseSystem: { ...cases, makeOrderLetter: () => Promise.reject(new Error("disk full")) },
        now: clock.now,
        retrySeconds: [],
        logger: recordingLogger(),
        catchUpHours: 0,
      });
      await failing.runOnce();
      expect(LetterJobListSchema.parse(await handler.listLetterJobs({ state: "failed" }))).toEqual({
        object: "list",
        data: [
          {
            object: "letter_job",
            order_id: orderId,
            case_number: caseNumber,
            state: "failed",
            attempts: 1,
            due_at: null,
            runner: null,
            last_error: "disk full",
            created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
            updated_at: clock.now().toISOString(),
          },
        ],
      });
      expect(await handler.listLetterJobs({ state: "pending" })).toEqual({ object: "list", data: [] });
      clock.advance(5);
      expect(LetterJobViewSchema.parse(await handler.retryLetterJob({ order_id: orderId }))).toMatchObject({
        order_id: orderId,
        state: "pending",
        attempts: 0,
        due_at: clock.now().toISOString(),
        runner: null,
        last_error: "disk full",
      });
      await expect(handler.listLetterJobs({ state: "done" })).rejects.toMatchObject({
        code: "invalid_request",
      });
      await expect(handler.retryLetterJob({})).rejects.toMatchObject({ code: "invalid_request" });
    });

    it("runs in the background once started and stops cleanly", async () => {
      const { orderId, caseNumber } = await place();
      const states: boolean[] = [];
      const made = new Promise<string>((resolve) => {
        const runner = createLetterRunner({
          store,
          caseSystem: cases,
          pollIntervalMs: 10,
          catchUpHours: 0,
          onJob: (result) => {
            if (result.orderId !== orderId) return;
            states.push(runner.running);
            const stopped = runner.stop();
            states.push(runner.running);
            void stopped.then(() => resolve(result.outcome));
          },
        });
        states.push(runner.running);
        runner.start();
      });
      expect(await made).toBe("made");
      // Not running before start, running while it works, not running from the call to stop on.
      expect(states).toEqual([false, true, false]);
      expect((await lettersOf(caseNumber)).map((l) => l.orderId)).toEqual([orderId]);
    });
  });
}
