import { escapeHtml, jsonForScript } from "./html-escape.js";
import type { PageLanguage } from "./page-language.js";
import { CLIENT_TEXTS, PAGE_TEXTS } from "./page-texts.js";

/**
 * What {@link pageLayout} needs besides the page's own content.
 *
 * @example
 * const input: PageLayoutInput = { lang: "nl", title: "WIK-calculator", path: "/tools/wik", toolsPath: "/tools", docsPath: "/api/v1/docs", main: "<h1>…</h1>" };
 */
export interface PageLayoutInput {
  lang: PageLanguage;
  title: string;
  /** The page's own path, for the language switch. */
  path: string;
  toolsPath: string;
  docsPath: string;
  /** The page's content inside `<main>`, already escaped. */
  main: string;
  /** Which navigation entry is the current page. */
  current?: "tools" | "wik" | "court";
  /** Whether the page loads the tools script (with the client texts as JSON). */
  script?: boolean;
}

/**
 * The frame of every tool page: skip link, header with navigation and language switch, main,
 * footer. One stylesheet and at most one script, both from the package, nothing from elsewhere
 * (architecture: web pages fetch nothing at run time).
 *
 * @example
 * const html = pageLayout({ lang: "en", title: "Court finder", path: "/tools/rol-router", toolsPath: "/tools", docsPath: "/api/v1/docs", main: "<h1>Court finder</h1>" });
 */
export function pageLayout(input: PageLayoutInput): string {
  const t = PAGE_TEXTS[input.lang];
  const q = input.lang === "en" ? "?lang=en" : "";
  const switchHref = `${input.path}${t.switchTo.lang === "en" ? "?lang=en" : ""}`;
  const link = (href: string, label: string, key?: PageLayoutInput["current"]) =>
    `<li><a href="${escapeHtml(href)}"${key !== undefined && key === input.current ? ' aria-current="page"' : ""}>${escapeHtml(label)}</a></li>`;
  return `<!doctype html>
<html lang="${input.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)} · ${escapeHtml(t.siteName)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeHtml(input.toolsPath)}/assets/tools.css">
${input.script ? `<script type="application/json" id="page-texts">${jsonForScript(CLIENT_TEXTS[input.lang])}</script>\n<script type="module" src="${escapeHtml(input.toolsPath)}/assets/tools.js"></script>` : ""}
</head>
<body>
<a class="skip" href="#main">${escapeHtml(t.skip)}</a>
<header class="site">
<a class="brand" href="${escapeHtml(input.toolsPath)}${q}">${escapeHtml(t.siteName)}</a>
<nav aria-label="${escapeHtml(t.nav.label)}"><ul>
${link(`${input.toolsPath}${q}`, t.nav.tools, "tools")}
${link(`${input.toolsPath}/wik${q}`, t.nav.wik, "wik")}
${link(`${input.toolsPath}/rol-router${q}`, t.nav.court, "court")}
${link(input.docsPath, t.nav.docs)}
</ul></nav>
<a class="lang" href="${escapeHtml(switchHref)}" lang="${t.switchTo.lang}" hreflang="${t.switchTo.lang}">${escapeHtml(t.switchTo.label)}</a>
</header>
<main id="main" tabindex="-1">
${input.main}
</main>
<footer class="site"><p>${escapeHtml(t.footer)}</p></footer>
</body>
</html>
`;
}
