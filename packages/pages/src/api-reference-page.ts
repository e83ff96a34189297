import { escapeHtml, jsonForScript } from "./html-escape.js";

/**
 * The API reference page: the OpenAPI document, inlined as JSON so the first load is one
 * compressed page and one script, rendered by RapiDoc's standalone bundle from this package
 * (decision pages-api-reference). Fonts are the system's, so RapiDoc loads none from elsewhere.
 *
 * @example
 * const html = apiReferencePage({ document: api.openapi(), docsPath: "/api/v1/docs", toolsPath: "/tools" });
 */
export function apiReferencePage(input: { document: unknown; docsPath: string; toolsPath: string }): string {
  const title = (input.document as { info?: { title?: string } }).info?.title ?? "API reference";
  const docs = escapeHtml(input.docsPath);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · API reference</title>
<link rel="icon" href="data:,">
<style>
html,body{margin:0;height:100%}
/* Darker theme colours than RapiDoc's defaults, for a contrast of at least 4.5:1 (WCAG 2.2 SC 1.4.3);
   the host's own rules win over the :host rules inside its shadow root. */
rapi-doc{height:100%;width:100%;--green:#2f6b00;--blue:#0b5394;--orange:#9a4f00;--red:#b3261e;--purple:#5a4fcf;
--yellow:#5f5700;--light-fg:#595959;--fg3:#4d4d4d;--fg2:#404040;--placeholder-color:#6b6b6b}
</style>
<script type="application/json" id="openapi-document">${jsonForScript(input.document)}</script>
<script src="${docs}/assets/rapidoc-min.js" defer></script>
<script src="${docs}/assets/api-reference.js" defer></script>
</head>
<body>
<rapi-doc id="api-reference" theme="light" load-fonts="false" render-style="focused" show-header="false"
  allow-spec-url-load="false" allow-spec-file-load="false" allow-server-selection="false"
  schema-style="table" default-schema-tab="example" show-curl-before-try="true"
  regular-font="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
  mono-font="ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace"
  primary-color="#0b5394" nav-bg-color="#f4f6f8" nav-text-color="#1f2933" nav-hover-text-color="#0b5394"
  update-route="true" route-prefix="#">
<p slot="nav-logo" style="padding:8px 16px;margin:0"><a href="${escapeHtml(input.toolsPath)}" style="color:#0b5394">Tools</a></p>
</rapi-doc>
<noscript><p>The API reference needs JavaScript. The OpenAPI document is at <a href="openapi.json">openapi.json</a>.</p></noscript>
</body>
</html>
`;
}
