import { type ConsoleLayoutInput, consoleLayout } from "./console-layout.js";

// The console's own pages: scripts, styles and form posts from this origin only, no framing, no
// inline script (CSP Level 3); never cached, since every page shows a person's cases.
const CONSOLE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";

/**
 * The headers of every console response: no caching of personal data (RFC 9111 §5.2.2.5
 * no-store), the CSP, no referrer to other sites, no framing.
 *
 * @example
 * new Response(html, { headers: consoleHeaders("text/html; charset=utf-8") });
 */
export function consoleHeaders(contentType: string): Headers {
  return new Headers({
    "content-type": contentType,
    "cache-control": "no-store",
    "content-security-policy": CONSOLE_CSP,
    // same-origin, not no-referrer: under no-referrer a browser sends `Origin: null` on a form post
    // (Fetch standard, serializing a request origin), and the console checks the Origin of posts.
    "referrer-policy": "same-origin",
    "x-frame-options": "DENY",
  });
}

/**
 * A console page with its status.
 *
 * @example
 * return htmlPage(403, { base: "/console", title: "Geen toegang", main: "<h1>Geen toegang</h1>" });
 */
export function htmlPage(status: number, layout: ConsoleLayoutInput): Response {
  return new Response(consoleLayout(layout), { status, headers: consoleHeaders("text/html; charset=utf-8") });
}

/**
 * A 303 See Other to a page of the console: after a form post the browser GETs the result, so a
 * reload does not post twice (RFC 9110 §15.4.4).
 *
 * @example
 * return seeOther("/console/zaken/2026-000001?ok=betaling");
 */
export function seeOther(location: string): Response {
  const headers = consoleHeaders("text/plain; charset=utf-8");
  headers.set("location", location);
  return new Response(null, { status: 303, headers });
}
