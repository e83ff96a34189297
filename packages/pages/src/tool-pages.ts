import { escapeHtml } from "./html-escape.js";
import type { PageLanguage } from "./page-language.js";
import { pageLayout } from "./page-layout.js";
import { PAGE_TEXTS } from "./page-texts.js";

/**
 * Where the pages live and which API they call.
 *
 * @example
 * const paths: PagePaths = { toolsPath: "/tools", docsPath: "/api/v1/docs", apiBasePath: "/api/v1" };
 */
export interface PagePaths {
  toolsPath: string;
  docsPath: string;
  apiBasePath: string;
}

interface FieldInput {
  id: string;
  /** The API's field name: an error naming it is shown beside this input. */
  apiField: string;
  label: string;
  hint?: string;
  input: string;
}

// One field: label, hint and an error slot tied to the input by aria-describedby, so a screen
// reader reads the error with the field (WCAG 2.2 SC 3.3.1 Error Identification).
function field(f: FieldInput): string {
  const hint = f.hint ? `<p class="hint" id="${f.id}-hint">${escapeHtml(f.hint)}</p>` : "";
  return `<div class="field" data-field="${f.apiField}">
<label for="${f.id}">${escapeHtml(f.label)}</label>
${hint}
${f.input.replace("<input", `<input id="${f.id}" aria-describedby="${f.hint ? `${f.id}-hint ` : ""}${f.id}-error"`)}
<p class="error" id="${f.id}-error" hidden></p>
</div>`;
}

/**
 * The overview page at the tools path: what each tool does, with links.
 *
 * @example
 * const html = toolsIndexPage("nl", { toolsPath: "/tools", docsPath: "/api/v1/docs", apiBasePath: "/api/v1" });
 */
export function toolsIndexPage(lang: PageLanguage, paths: PagePaths): string {
  const t = PAGE_TEXTS[lang];
  const q = lang === "en" ? "?lang=en" : "";
  const main = `<h1>${escapeHtml(t.index.title)}</h1>
<p>${escapeHtml(t.index.intro)}</p>
<ul class="cards">
<li><h2><a href="${escapeHtml(paths.toolsPath)}/wik${q}">${escapeHtml(t.nav.wik)}</a></h2><p>${escapeHtml(t.index.wik)}</p></li>
<li><h2><a href="${escapeHtml(paths.toolsPath)}/rol-router${q}">${escapeHtml(t.nav.court)}</a></h2><p>${escapeHtml(t.index.court)}</p></li>
<li><h2><a href="${escapeHtml(paths.docsPath)}">${escapeHtml(t.nav.docs)}</a></h2><p>${escapeHtml(t.index.docs)}</p></li>
</ul>`;
  return pageLayout({ lang, title: t.index.title, path: paths.toolsPath, current: "tools", main, ...paths });
}

/**
 * The WIK calculator: a form for POST /tools/wik of the API and an empty result region the
 * script fills with the API's answer.
 *
 * @example
 * const html = wikPage("en", { toolsPath: "/tools", docsPath: "/api/v1/docs", apiBasePath: "/api/v1" });
 */
export function wikPage(lang: PageLanguage, paths: PagePaths): string {
  const t = PAGE_TEXTS[lang];
  const w = t.wik;
  const main = `<h1>${escapeHtml(w.title)}</h1>
<p>${escapeHtml(w.intro)}</p>
<noscript><p class="notice">${escapeHtml(t.noscript)}</p></noscript>
<form id="wik-form" class="tool" novalidate data-endpoint="${escapeHtml(paths.apiBasePath)}/tools/wik">
${field({ id: "wik-principal", apiField: "amount_cents", label: w.principal, hint: w.principalHint, input: '<input name="principal" type="text" inputmode="decimal" autocomplete="off" required>' })}
<fieldset class="field" data-field="debtor_type" aria-describedby="wik-debtor-error">
<legend>${escapeHtml(w.debtorType)}</legend>
<label class="choice"><input type="radio" name="debtor_type" value="consumer" checked> ${escapeHtml(w.consumer)}</label>
<label class="choice"><input type="radio" name="debtor_type" value="business"> ${escapeHtml(w.business)}</label>
<p class="error" id="wik-debtor-error" hidden></p>
</fieldset>
${field({ id: "wik-due-date", apiField: "due_date", label: w.dueDate, hint: w.dueDateHint, input: '<input name="due_date" type="date">' })}
<div class="field" data-field="include_vat">
<label class="choice"><input id="wik-vat" name="include_vat" type="checkbox" aria-describedby="wik-vat-error"> ${escapeHtml(w.vat)}</label>
<p class="error" id="wik-vat-error" hidden></p>
</div>
<p class="error form-error" role="alert" hidden></p>
<button type="submit">${escapeHtml(w.submit)}</button>
</form>
<section id="wik-result" class="result" aria-live="polite" tabindex="-1" hidden></section>`;
  return pageLayout({
    lang,
    title: w.title,
    path: `${paths.toolsPath}/wik`,
    current: "wik",
    script: true,
    main,
    ...paths,
  });
}

/**
 * The court finder: a form for POST /tools/rol-router of the API; the script shows the court,
 * the choices of an ambiguous place, the suggestions for an unknown one, or what is unknown.
 *
 * @example
 * const html = courtPage("nl", { toolsPath: "/tools", docsPath: "/api/v1/docs", apiBasePath: "/api/v1" });
 */
export function courtPage(lang: PageLanguage, paths: PagePaths): string {
  const t = PAGE_TEXTS[lang];
  const c = t.court;
  const main = `<h1>${escapeHtml(c.title)}</h1>
<p>${escapeHtml(c.intro)}</p>
<noscript><p class="notice">${escapeHtml(t.noscript)}</p></noscript>
<form id="court-form" class="tool" novalidate data-endpoint="${escapeHtml(paths.apiBasePath)}/tools/rol-router">
${field({ id: "court-woonplaats", apiField: "woonplaats", label: c.woonplaats, hint: c.woonplaatsHint, input: '<input name="woonplaats" type="text" autocomplete="address-level2" required>' })}
${field({ id: "court-naam", apiField: "naam", label: c.naam, input: '<input name="naam" type="text" autocomplete="off" required>' })}
${field({ id: "court-betekeningsdatum", apiField: "betekeningsdatum", label: c.betekeningsdatum, hint: c.betekeningsdatumHint, input: '<input name="betekeningsdatum" type="date">' })}
<input type="hidden" name="gemeente">
<input type="hidden" name="provincie">
<p class="error form-error" role="alert" hidden></p>
<button type="submit">${escapeHtml(c.submit)}</button>
</form>
<section id="court-result" class="result" aria-live="polite" tabindex="-1" hidden></section>`;
  return pageLayout({
    lang,
    title: c.title,
    path: `${paths.toolsPath}/rol-router`,
    current: "court",
    script: true,
    main,
    ...paths,
  });
}
