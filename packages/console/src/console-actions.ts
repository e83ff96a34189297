import { LETTER_DETAIL_LABELS } from "./admin-pages.js";
import type { LetterDetailField } from "./console-operations.js";
import type { ConsoleEnvironment, ConsoleRequest, ConsoleRoute } from "./console-plugin.js";
import { recordAudit } from "./console-queries.js";
import { seeOther } from "./console-responses.js";
import {
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
        (error) => renderCase(env, req, caseNumber, 422, { error }),
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
          (error) => renderCase(env, req, caseNumber, 422, { error }),
        );
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
            await env.ops().redeliverWebhook({ event_id: eventId });
            await audit(req, "Webhook opnieuw afgeleverd", null, eventId, null);
            return seeOther(`${env.base}/webhooks/${encodeURIComponent(eventId)}?ok=opnieuw`);
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
          (error) => renderWebhooks(env, req, 422, { error }),
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
            await audit(req, "Webhook gepingd", null, organisation, sent.event.event_id);
            return seeOther(`${env.base}/webhooks/${encodeURIComponent(sent.event.event_id)}?ok=ping`);
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
            const organisation = (req.form.get("organisation") ?? "").trim();
            const mode = req.form.get("mode");
            const visibility = req.form.get("visibility") ?? "own";
            if (!ORGANISATION.test(organisation)) throw new FormError("Vul een organisatie in.");
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
          (error) => renderKeys(env, req, 422, { error }),
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
              "Operator gemaakt",
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
          (error) => renderOperators(env, req, 422, { error }),
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
            await audit(req, "Operator ingetrokken", null, revoked.id, revoked.name);
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
            if (!target) throw new FormError("Deze operator bestaat niet.");
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
          (error) => renderOrganisations(env, req, 422, { error }),
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
