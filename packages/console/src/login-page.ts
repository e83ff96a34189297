import { escapeHtml } from "@incasso/pages";
import { notice } from "./console-layout.js";

/**
 * The login form's content: one credential field (the operator's credential from `incasso
 * operators create`), and the reason of a refused login.
 *
 * @example
 * const main = loginMain("/console", "Onbekende of ingetrokken inloggegevens.");
 */
export function loginMain(base: string, error?: string): string {
  return `<h1>Inloggen</h1>
${notice("error", error)}
<form method="post" action="${escapeHtml(base)}/inloggen" class="card narrow">
<label for="credential">Inloggegevens</label>
<input id="credential" name="credential" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Inloggen</button>
</form>`;
}
