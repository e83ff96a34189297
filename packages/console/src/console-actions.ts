import { LETTER_DETAIL_LABELS, NEW_ORGANISATION } from "./admin-pages.js";
import type { ConsoleAttempt, LetterDetailField } from "./console-operations.js";
import type { ConsoleEnvironment, ConsoleRequest, ConsoleRoute } from "./console-plugin.js";
import { listOrganisations, recordAudit } from "./console-queries.js";
import { seeOther } from "./console-responses.js";
import {
  renderAttention,
  renderCase,
  renderDelivery,
  renderKeys,
  renderOperators,
  renderOrganisations,
  renderWebhooks,
} from "./console-views.js";
import { domainErrorMessage } from "./domain-error.js";
import { formatDate, formatEuro, parseDutchDate, parseEuro } from "./dutch-format.js";
import { messageMain } from "./message-page.js";

const ORGANISATION = /^.{1,200}$/u;

/** A refusal of the console's own checks, shown on the page it came from with 422. */
class FormError extends Error {}

/**
 * Runs a change and answers: the page it came from with the refusal in Dutch (422 Unprocessable
 * Content, RFC 9110 §15.5.21) when the operation or the form refuses it; any other error is
 * rethrown (a fault, not bad input).
 */
async function attempt(
  change: () => Promise<Response>,
  refused: (message: string) => Promise<Response>,
): Promise<Response> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof FormError) return refused(error.message);
    const message = domainErrorMessage(error);
    if (message === undefined) throw error;
    return refused(message);
  }
}

/**
 * What was typed in a refused form, by field name, without its CSRF token, so the page shows it
 * again (issue 31, item 5). Each value is cut at 4,000 characters, the longest any field takes.
 */
function typedValues(form: URLSearchParams): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of form) if (name !== "csrf") values[name] = value.slice(0, 4000);
  return values;
}

/** How a ping or redelivery went, for the audit trail. */
function outcomeText(attempt: ConsoleAttempt | null): string {
  if (attempt === null) return "aan de webhookverzender";
  return attempt.outcome === "delivered"
    ? `afgeleverd (HTTP ${attempt.status_code})`
    : `mislukt${attempt.status_code === null ? "" : ` (HTTP ${attempt.status_code})`}`;
}

/**
 * The query of the page shown after a ping or redelivery: `ok` when the attempt made at once was
 * delivered or a running dispatcher took the event over, `fout` when the endpoint refused it or
 * could not be reached.
 */
function outcomeParam(what: "ping" | "opnieuw", attempt: ConsoleAttempt | null): string {
  if (attempt === null) return `ok=${what}-gestart`;
  return attempt.outcome === "delivered" ? `ok=${what}` : `fout=${what}`;
}

/**
 * The organisation a new key is for (issue 31, item 5): one picked from the existing ones, or a new
 * one only when "new organisation" was chosen and its name typed. A new name that differs from an
 * existing one only in capitals or spaces is refused, so `demo` never makes a second organisation
 * beside `Demo`.
 */
async function chosenOrganisation(env: ConsoleEnvironment, form: URLSearchParams): Promise<string> {
  const picked = (form.get("organisation") ?? "").trim();
  const existing = (await listOrganisations(env.database)).map((o) => o.name);
  if (picked !== NEW_ORGANISATION) {
    if (!existing.includes(picked)) throw new FormError("Kies een organisatie uit de lijst.");
    return picked;
  }
  const name = (form.get("new_organisation") ?? "").trim();
  if (!ORGANISATION.test(name))
    throw new FormError("Vul de naam van de nieuwe organisatie in (1 tot 200 tekens).");
  const fold = (text: string) => text.normalize("NFC").toLocaleLowerCase("nl").replace(/\s+/g, " ");
  const same = existing.find((o) => fold(o) === fold(name));
  if (same !== undefined) throw new FormError(`Er is al een organisatie ${same}; kies haar in de lijst.`);
  return name;
}

/**
 * The console's changes (POST), each through the CLI's operations (console-operations.ts) and
 * recorded in the audit trail with the operator who made it (issue 19, item 2).
 *
 * @example
 * const routes = consoleActions(env);
 */
export function consoleActions(env: ConsoleEnvironment): ConsoleRoute[] {
  const audit = (
    req: ConsoleRequest,
    action: string,
    caseNumber: string | null,
    subject: string | null,
    detail: string | null,
  ) =>
    recordAudit(env.database, env.now(), {
      operatorId: req.operator.id,
      operatorName: req.operator.name,
      action,
      caseNumber,
      subject,
      detail,
    });
  const caseAction = (
    path: string,
    ok: string,
    change: (req: ConsoleRequest, caseNumber: string) => Promise<void>,
  ): ConsoleRoute => ({
    method: "POST",
    path: `/zaken/:caseNumber${path}`,
    section: "cases",
    run: (req) => {
      const caseNumber = String(req.ctx.params.caseNumber ?? "");
      return attempt(
        async () => {
          await change(req, caseNumber);
          return seeOther(`${env.base}/zaken/${encodeURIComponent(caseNumber)}?ok=${ok}`);
        },
        (error) => renderCase(env, req, caseNumber, 422, { error, values: typedValues(req.form) }),
      );
    },
  });
  return [
    caseAction("/betaling", "betaling", async (req, caseNumber) => {
      const amount = parseEuro(req.form.get("amount") ?? "");
      if (amount === undefined || amount < 1) throw new FormError("Vul een bedrag in, zoals 1.234,56.");
      const dateText = (req.form.get("payment_date") ?? "").trim();
      const date = dateText === "" ? undefined : parseDutchDate(dateText);
      if (dateText !== "" && date === undefined) throw new FormError("Vul de datum in als dd-mm-jjjj.");
      await env
        .ops()
        .payCase({ case_number: caseNumber, amount_cents: amount, ...(date ? { payment_date: date } : {}) });
      await audit(
        req,
        "Betaling geboekt",
        caseNumber,
        null,
        `${formatEuro(amount)}${date ? ` op ${formatDate(date)}` : ""}`,
      );
    }),
    caseAction("/status", "status", async (req, caseNumber) => {
      const status = req.form.get("status") ?? "";
      if (status === "Gesloten") throw new FormError("Sluit een zaak met de knop Zaak sluiten.");
      await env.ops().setCaseStatus({ case_number: caseNumber, status });
      await audit(req, "Status gewijzigd", caseNumber, null, status);
    }),
    caseAction("/sluiten", "gesloten", async (req, caseNumber) => {
      await env.ops().closeCase({ case_number: caseNumber });
      await audit(req, "Zaak gesloten", caseNumber, null, null);
    }),
    caseAction("/brief", "brief", async (req, caseNumber) => {
      const letter = await env.ops().sendCaseLetter({ case_number: caseNumber });
      await audit(req, "14-dagenbrief gemaakt", caseNumber, letter.id, letter.filename);
    }),
    caseAction("/notitie", "notitie", async (req, caseNumber) => {
      const text = (req.form.get("text") ?? "").trim();
      if (text === "" || text.length > 4000) throw new FormError("Een notitie heeft 1 tot 4.000 tekens.");
      const { noteId } = await env.cases.addNote({ caseNumber, text });
      await audit(req, "Notitie toegevoegd", caseNumber, noteId, text);
    }),
    {
      method: "POST",
      path: "/zaken/:caseNumber/taken/:taskId",
      section: "cases",
      run: (req) => {
        const params = req.ctx.params as Record<string, string>;
        const caseNumber = params.caseNumber ?? "";
        const taskId = params.taskId ?? "";
        // A task is resolved only under its own case's URL (issue 28, item 5): the case number
        // goes to the operation, which refuses a task of another case with task_not_found in the
        // same transaction that resolves it, so the audit row below is always on the task's case.
        const notFound = () =>
          req.page(404, {
            title: "Niet gevonden",
            main: messageMain(
              "Niet gevonden",
              `Er is geen taak ${taskId} bij zaak ${caseNumber}.`,
              `${env.base}/zaken/${encodeURIComponent(caseNumber)}`,
            ),
            current: "cases",
          });
        return attempt(
          async () => {
            const outcome = req.form.get("outcome");
            const reason = (req.form.get("reason") ?? "").trim();
            if (reason.length > 2000)
              throw new FormError("De toelichting is te lang (ten hoogste 2.000 tekens).");
            const task = { case_number: caseNumber, task_id: taskId };
            try {
              if (outcome === "done") {
                await env.ops().completeTask({ ...task, ...(reason ? { note: reason } : {}) });
                await audit(req, "Taak afgehandeld", caseNumber, taskId, reason || null);
              } else if (outcome === "rejected") {
                if (reason === "") throw new FormError("Geef bij afwijzen een reden.");
                await env.ops().rejectTask({ ...task, note: reason });
                await audit(req, "Taak afgewezen", caseNumber, taskId, reason);
              } else throw new FormError("Kies afgehandeld of afwijzen.");
            } catch (error) {
              if ((error as { code?: unknown }).code === "task_not_found") return notFound();
              throw error;
            }
            return seeOther(`${env.base}/zaken/${encodeURIComponent(caseNumber)}?ok=taak`);
          },
          (error) =>
            renderCase(env, req, caseNumber, 422, {
              error,
              values: { task: taskId, reason: req.form.get("reason") ?? "" },
            }),
        );
      },
    },
    {
      // Tries a letter job of the case again now (issue 31, item 3): from the case page, or from
      // the "needs attention" page, to which it then returns.
      method: "POST",
      path: "/zaken/:caseNumber/brieftaken/:orderId/opnieuw",
      section: "cases",
      run: async (req) => {
        const params = req.ctx.params as Record<string, string>;
        const caseNumber = params.caseNumber ?? "";
        const orderId = params.orderId ?? "";
        const fromAttention = req.form.get("terug") === "aandacht";
        const back = (error: string) =>
          fromAttention
            ? renderAttention(env, req, 422, { error })
            : renderCase(env, req, caseNumber, 422, { error });
        return attempt(async () => {
          // Only a job of this case is retried under its URL, as tasks are (issue 28, item 5).
          const jobs = await env.ops().listLetterJobs({ case_number: caseNumber, limit: 1000 });
          if (!jobs.data.some((j) => j.order_id === orderId))
            throw new FormError(
              "Er is geen briefopdracht voor deze order bij deze zaak; de brief is al gemaakt.",
            );
          await env.ops().retryLetterJob({ order_id: orderId });
          await audit(req, "14-dagenbrief opnieuw geprobeerd", caseNumber, orderId, null);
          return seeOther(
            fromAttention
              ? `${env.base}/aandacht?ok=brief-opnieuw`
              : `${env.base}/zaken/${encodeURIComponent(caseNumber)}?ok=brief-opnieuw`,
          );
        }, back);
      },
    },
    {
      method: "POST",
      path: "/webhooks/:eventId/opnieuw",
      section: "deliveries",
      run: (req) => {
        const eventId = String(req.ctx.params.eventId ?? "");
        return attempt(
          async () => {
            const sent = await env.ops().redeliverWebhook({ event_id: eventId });
            await audit(req, "Webhook opnieuw afgeleverd", null, eventId, outcomeText(sent.attempt));
            return seeOther(
              `${env.base}/webhooks/${encodeURIComponent(eventId)}?${outcomeParam("opnieuw", sent.attempt)}`,
            );
          },
          (error) => renderDelivery(env, req, eventId, 422, { error }),
        );
      },
    },
    {
      method: "POST",
      path: "/webhooks/eindpunt",
      section: "endpoints",
      run: (req) =>
        attempt(
          async () => {
            const organisation = (req.form.get("organisation") ?? "").trim();
            const url = (req.form.get("url") ?? "").trim();
            if (!ORGANISATION.test(organisation)) throw new FormError("Kies een organisatie.");
            if (url === "" || url.length > 2000) throw new FormError("Vul een URL in.");
            const set = await env.ops().setWebhook({ organisation, url });
            await audit(req, "Webhook-eindpunt ingesteld", null, organisation, url);
            return set.secret
              ? renderWebhooks(env, req, 200, { ok: "Eindpunt opgeslagen.", secret: set.secret })
              : seeOther(`${env.base}/webhooks?ok=eindpunt`);
          },
          (error) => renderWebhooks(env, req, 422, { error, values: typedValues(req.form) }),
        ),
    },
    {
      method: "POST",
      path: "/webhooks/ping",
      section: "endpoints",
      run: (req) =>
        attempt(
          async () => {
            const organisation = (req.form.get("organisation") ?? "").trim();
            if (!ORGANISATION.test(organisation)) throw new FormError("Kies een organisatie.");
            const sent = await env.ops().pingWebhook({ organisation });
            await audit(
              req,
              "Webhook gepingd",
              null,
              organisation,
              `${sent.event.event_id}: ${outcomeText(sent.attempt)}`,
            );
            // A refused ping is a failure, not a green notice (issue 31, item 3).
            return seeOther(
              `${env.base}/webhooks/${encodeURIComponent(sent.event.event_id)}?${outcomeParam("ping", sent.attempt)}`,
            );
          },
          (error) => renderWebhooks(env, req, 422, { error }),
        ),
    },
    {
      method: "POST",
      path: "/sleutels",
      section: "keys",
      run: (req) =>
        attempt(
          async () => {
            const organisation = await chosenOrganisation(env, req.form);
            const mode = req.form.get("mode");
            const visibility = req.form.get("visibility") ?? "own";
            if (mode !== "live" && mode !== "test") throw new FormError("Kies live of test.");
            if (visibility !== "own" && visibility !== "organisation")
              throw new FormError("Kies een zichtbaarheid.");
            const created = await env.ops().createKey({
              organisation,
              mode,
              visibility,
              creditor_management: req.form.get("creditor_management") === "1",
            });
            await audit(req, "API-sleutel gemaakt", null, created.id, `${organisation} (${mode})`);
            // 201 with the key in the page: it is shown this once and never again (only its hash is kept).
            return renderKeys(env, req, 201, { created: created.key });
          },
          (error) => renderKeys(env, req, 422, { error, values: typedValues(req.form) }),
        ),
    },
    {
      method: "POST",
      path: "/operators",
      section: "operators",
      run: (req) =>
        attempt(
          async () => {
            const name = (req.form.get("name") ?? "").trim();
            const role = req.form.get("role") ?? "handler";
            if (name === "" || name.length > 200)
              throw new FormError("Vul een naam in (ten hoogste 200 tekens).");
            if (role !== "handler" && role !== "admin") throw new FormError("Kies behandelaar of beheerder.");
            const created = await env.ops().createOperator({ name, role });
            // Not a case change: recorded without a case, as key and webhook changes are.
            await audit(
              req,
              "Medewerker gemaakt",
              null,
              created.id,
              `${created.name} (${created.role === "admin" ? "beheerder" : "behandelaar"})`,
            );
            // 201 with the credential in the page: shown this once and never again (only its
            // hash is kept, decision operators-credentials).
            return renderOperators(env, req, 201, {
              created: { name: created.name, credential: created.credential },
            });
          },
          (error) => renderOperators(env, req, 422, { error, values: typedValues(req.form) }),
        ),
    },
    {
      method: "POST",
      path: "/operators/:operatorId/intrekken",
      section: "operators",
      run: (req) => {
        const operatorId = String(req.ctx.params.operatorId ?? "");
        return attempt(
          async () => {
            // An admin revoking their own account would end their session mid-change and could
            // leave no admin to undo it; that stays with `incasso operators revoke`.
            if (operatorId === req.operator.id)
              throw new FormError("U kunt uw eigen account hier niet intrekken.");
            const revoked = await env.ops().revokeOperator({ id: operatorId });
            // Audited first: the revocation has taken effect. The directory refuses a revoked
            // operator anyway; ending the sessions as well leaves no live row behind (decision
            // console-session-state).
            await audit(req, "Medewerker ingetrokken", null, revoked.id, revoked.name);
            await env.sessions.endAll(revoked.id);
            return seeOther(`${env.base}/operators?ok=operator-ingetrokken`);
          },
          (error) => renderOperators(env, req, 422, { error }),
        );
      },
    },
    {
      // An admin's "log out everywhere" for another operator (issue 28, item 3): every console
      // session of the operator ends at once; the account stays.
      method: "POST",
      path: "/operators/:operatorId/sessies",
      section: "operators",
      run: (req) => {
        const operatorId = String(req.ctx.params.operatorId ?? "");
        return attempt(
          async () => {
            const target = (await env.ops().listOperators()).find((o) => o.id === operatorId);
            if (!target) throw new FormError("Deze medewerker bestaat niet.");
            const ended = await env.sessions.endAll(target.id);
            await audit(
              req,
              "Sessies beëindigd",
              null,
              target.id,
              `${target.name}: ${ended} ${ended === 1 ? "sessie" : "sessies"}`,
            );
            return seeOther(`${env.base}/operators?ok=sessies-beeindigd`);
          },
          (error) => renderOperators(env, req, 422, { error }),
        );
      },
    },
    {
      method: "POST",
      path: "/organisaties/briefgegevens",
      section: "organisations",
      run: (req) =>
        attempt(
          async () => {
            const organisation = (req.form.get("organisation") ?? "").trim();
            if (!ORGANISATION.test(organisation)) throw new FormError("Kies een organisatie.");
            // Every field of the form is sent: an empty one clears its value (null), as
            // `incasso letter-details set` does with an empty flag.
            const details: Partial<Record<LetterDetailField, string | null>> = {};
            for (const field of Object.keys(LETTER_DETAIL_LABELS) as LetterDetailField[]) {
              const value = (req.form.get(field) ?? "").trim();
              if (value.length > 200) throw new FormError(`${LETTER_DETAIL_LABELS[field]} is te lang.`);
              details[field] = value === "" ? null : value;
            }
            await env.ops().setLetterDetails({ organisation, details });
            await audit(req, "Briefgegevens ingesteld", null, organisation, details.iban ?? "geen IBAN");
            return seeOther(`${env.base}/organisaties?ok=briefgegevens`);
          },
          // The refused form shows every field as typed (issue 31, item 5).
          (error) =>
            renderOrganisations(env, req, 422, {
              error,
              typed: {
                organisation: (req.form.get("organisation") ?? "").trim(),
                values: typedValues(req.form),
              },
            }),
        ),
    },
    {
      method: "POST",
      path: "/sleutels/:keyId/intrekken",
      section: "keys",
      run: (req) => {
        const keyId = String(req.ctx.params.keyId ?? "");
        return attempt(
          async () => {
            const revoked = await env.ops().revokeKey(keyId);
            await audit(req, "API-sleutel ingetrokken", null, revoked.id, revoked.organisation);
            return seeOther(`${env.base}/sleutels?ok=ingetrokken`);
          },
          (error) => renderKeys(env, req, 422, { error }),
        );
      },
    },
  ];
}
