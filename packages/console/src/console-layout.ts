import { escapeHtml } from "@incasso/pages";
import { mayUse } from "./console-roles.js";
import type { Operator } from "./operator-directory.js";

/**
 * What {@link consoleLayout} needs besides the page's own content.
 *
 * @example
 * const input: ConsoleLayoutInput = { base: "/console", title: "Zaken", main: "<h1>Zaken</h1>", current: "cases",
 *   operator: { id: "opr_0123456789abcdef", name: "Jan", role: "handler" }, csrf: "token" };
 */
export interface ConsoleLayoutInput {
  /** Where the console is mounted, such as `/console`. */
  base: string;
  title: string;
  /** The page's content inside `<main>`, already escaped. */
  main: string;
  /** Which navigation entry is the current page. */
  current?: "cases" | "attention" | "webhooks" | "keys" | "operators" | "udf" | "organisations";
  /** The operator logged in; without one the page has no navigation (the login page). */
  operator?: Operator;
  /** The session's CSRF token, for the log-out form. */
  csrf?: string;
}

/**
 * The frame of every console page: skip link, header with navigation (only the sections the
 * operator's role may open), the operator's name and the log-out buttons (this session, or every
 * session of the operator: decision console-session-state), main. One stylesheet and
 * one small script, both from the package (nothing fetched from elsewhere, issue 19 item 4).
 *
 * @example
 * const html = consoleLayout({ base: "/console", title: "Inloggen", main: "<h1>Inloggen</h1>" });
 */
export function consoleLayout(input: ConsoleLayoutInput): string {
  const b = escapeHtml(input.base);
  const op = input.operator;
  const link = (href: string, label: string, key: ConsoleLayoutInput["current"]) =>
    `<li><a href="${b}${href}"${key === input.current ? ' aria-current="page"' : ""}>${escapeHtml(label)}</a></li>`;
  const nav = op
    ? `<nav aria-label="Hoofdmenu"><ul>
${link("/zaken", "Zaken", "cases")}
${link("/aandacht", "Aandacht nodig", "attention")}
${link("/webhooks", "Webhooks", "webhooks")}
${mayUse(op.role, "keys") ? link("/sleutels", "API-sleutels", "keys") : ""}
${mayUse(op.role, "operators") ? link("/operators", "Medewerkers", "operators") : ""}
${link("/udf", "UDF-velden", "udf")}
${mayUse(op.role, "organisations") ? link("/organisaties", "Organisaties", "organisations") : ""}
</ul></nav>
<form class="logout" method="post" action="${b}/uitloggen"><span class="who">${escapeHtml(op.name)} (${op.role === "admin" ? "beheerder" : "behandelaar"})</span>
<input type="hidden" name="csrf" value="${escapeHtml(input.csrf ?? "")}"><button type="submit">Uitloggen</button>
<button type="submit" name="overal" value="1" title="Beëindigt al uw sessies, ook in andere browsers">Overal uitloggen</button></form>`
    : "";
  return `<!doctype html>
<html lang="nl">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)} · incasso-console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${b}/assets/console.css">
<script type="module" src="${b}/assets/console.js"></script>
</head>
<body>
<a class="skip" href="#main">Naar de inhoud</a>
<header class="site">
<a class="brand" href="${b}/zaken">incasso-console</a>
${nav}
</header>
<main id="main" tabindex="-1">
${input.main}
</main>
</body>
</html>
`;
}

/**
 * A hidden CSRF field for a form that changes something.
 *
 * @example
 * csrfField("abc"); // '<input type="hidden" name="csrf" value="abc">'
 */
export function csrfField(token: string): string {
  return `<input type="hidden" name="csrf" value="${escapeHtml(token)}">`;
}

/**
 * A notice above a page's content: a success (`role="status"`) or an error (`role="alert"`).
 *
 * @example
 * notice("error", "Bedrag ongeldig"); // '<p class="notice error" role="alert">Bedrag ongeldig</p>'
 */
export function notice(kind: "ok" | "error", text: string | undefined): string {
  if (!text) return "";
  return kind === "ok"
    ? `<p class="notice ok" role="status">${escapeHtml(text)}</p>`
    : `<p class="notice error" role="alert">${escapeHtml(text)}</p>`;
}
