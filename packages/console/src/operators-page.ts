import { escapeHtml } from "@incasso/pages";
import { csrfField, notice } from "./console-layout.js";
import type { ConsoleOperatorAccount } from "./console-operations.js";
import { formatMoment } from "./dutch-format.js";

const e = escapeHtml;

/** The roles in Dutch, as the header of every page names them (console-layout.ts). */
const ROLE_LABELS: Record<ConsoleOperatorAccount["role"], string> = {
  handler: "behandelaar",
  admin: "beheerder",
};

/**
 * The operators page (admin only, issue 19 item 2): every operator with role, creation,
 * revocation and lock-out, never a credential; the form to create one (the new credential shown
 * this once, as `incasso operators create` does), and on each active operator other than the one
 * logged in a button that ends all of their console sessions (decision console-session-state) and
 * a revoke button.
 *
 * @example
 * const main = operatorsMain({ base: "/console", operators, self: "op_0123456789abcdef", csrf: "t" });
 */
export function operatorsMain(input: {
  base: string;
  operators: ConsoleOperatorAccount[];
  /**
   * The id of the operator logged in: an admin cannot revoke their own account here, and ends their
   * own sessions with "Overal uitloggen" in the header.
   */
  self: string;
  csrf: string;
  /** An operator just created and its credential, shown this once (only its hash is stored). */
  created?: { name: string; credential: string };
  ok?: string;
  error?: string;
  /** What was typed in the form that was refused. */
  values?: Record<string, string>;
}): string {
  const b = e(input.base);
  const rows = input.operators.map((o) =>
    [
      `<td><code>${e(o.id)}</code></td>`,
      `<td>${e(o.name)}</td>`,
      `<td>${ROLE_LABELS[o.role]}</td>`,
      `<td>${formatMoment(o.created_at)}</td>`,
      `<td>${o.revoked_at ? formatMoment(o.revoked_at) : ""}</td>`,
      `<td>${o.locked_until && !o.revoked_at ? `tot ${formatMoment(o.locked_until)}` : ""}</td>`,
      `<td>${
        o.revoked_at || o.id === input.self
          ? ""
          : `<form method="post" action="${b}/operators/${encodeURIComponent(o.id)}/sessies" class="inline" data-confirm="Alle sessies van ${e(o.name)} beëindigen?">${csrfField(input.csrf)}<button type="submit">Sessies beëindigen</button></form>
<form method="post" action="${b}/operators/${encodeURIComponent(o.id)}/intrekken" class="inline" data-confirm="Medewerker ${e(o.name)} intrekken?">${csrfField(input.csrf)}<button type="submit" class="danger">Intrekken</button></form>`
      }</td>`,
    ].join(""),
  );
  const head = ["Medewerker", "Naam", "Rol", "Gemaakt", "Ingetrokken", "Geblokkeerd", ""];
  return `<h1>Medewerkers</h1>
${
  input.created
    ? `<div class="notice ok" role="status"><p>Inlogcode van ${e(input.created.name)} (wordt één keer getoond; geef hem nu door):</p><p><code class="secret" id="new-credential" data-field="new-credential">${e(input.created.credential)}</code>
<button type="button" class="copy" data-copy="new-credential" hidden>Kopiëren</button><span class="copied" role="status" aria-live="polite"></span></p></div>`
    : ""
}
${notice("ok", input.ok)}
${notice("error", input.error)}
<form method="post" action="${b}/operators" class="card">
<h2>Medewerker maken</h2>${csrfField(input.csrf)}
<label for="name">Naam</label><input id="name" name="name" required maxlength="200" value="${e(input.values?.name ?? "")}">
<label for="role">Rol</label><select id="role" name="role"><option value="handler">behandelaar</option><option value="admin"${input.values?.role === "admin" ? " selected" : ""}>beheerder</option></select>
<button type="submit">Medewerker maken</button>
</form>
<h2>Alle medewerkers</h2>
${
  rows.length === 0
    ? "<p>Geen.</p>"
    : `<table class="list"><thead><tr>${head.map((h) => `<th scope="col">${e(h)}</th>`).join("")}</tr></thead>
<tbody>${rows.map((r) => `<tr>${r}</tr>`).join("\n")}</tbody></table>`
}`;
}
