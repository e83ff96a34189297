// Hands the inlined OpenAPI document to RapiDoc once its element is defined: the page then needs
// no second request for the document (decision pages-api-reference).
const source = document.getElementById("openapi-document");
const element = document.getElementById("api-reference");

// RapiDoc leaves a few controls without an accessible name and some scrolling code blocks out of
// the tab order (WCAG 2.2 SC 4.1.2 Name, Role, Value; SC 2.1.1 Keyboard). Its shadow roots are
// open, so each rendered part is given what it lacks, again whenever RapiDoc renders anew.
function nameOf(control) {
  if (control.tagName === "TEXTAREA") return "Request body";
  const id = control.id || "";
  const name =
    control.dataset.pname || control.getAttribute("name") || id.replace(/^input-request-param-/, "");
  return name || control.getAttribute("placeholder") || control.type || "value";
}

function mend(root) {
  for (const node of root.querySelectorAll("*")) {
    if (node.shadowRoot) watch(node.shadowRoot);
    if (/^(INPUT|TEXTAREA|SELECT)$/.test(node.tagName) && node.type !== "hidden") {
      const labelled =
        node.getAttribute("aria-label") ||
        node.getAttribute("aria-labelledby") ||
        (node.id && root.querySelector(`label[for="${CSS.escape(node.id)}"]`)) ||
        node.closest("label");
      if (!labelled) node.setAttribute("aria-label", nameOf(node));
    }
    if (node.tagName === "PRE" && !node.hasAttribute("tabindex")) node.setAttribute("tabindex", "0");
  }
}

const watched = new WeakSet();
function watch(root) {
  if (watched.has(root)) return;
  watched.add(root);
  mend(root);
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      mend(root);
    });
  }).observe(root, { childList: true, subtree: true });
}

if (source && element) {
  customElements.whenDefined("rapi-doc").then(() => {
    const spec = JSON.parse(source.textContent || "{}");
    // Relative server URLs are resolved against this page, so "Try" calls this same API.
    if (Array.isArray(spec.servers)) {
      spec.servers = spec.servers.map((s) => ({ ...s, url: new URL(s.url, window.location.href).href }));
    }
    element.loadSpec(spec);
    if (element.shadowRoot) watch(element.shadowRoot);
  });
}
