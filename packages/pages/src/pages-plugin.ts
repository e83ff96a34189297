import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { type ApiPlugin, definePlugin, defineRoute, type RouteDefinition } from "@incasso/server";
import { apiReferencePage } from "./api-reference-page.js";
import { pageLanguage } from "./page-language.js";
import { StaticAsset } from "./static-asset.js";
import { courtPage, type PagePaths, toolsIndexPage, wikPage } from "./tool-pages.js";

/**
 * Options of {@link pagesPlugin}.
 *
 * @example
 * let api: IncassoApi;
 * const options: PagesOptions = { openapi: () => api.openapi() };
 */
export interface PagesOptions {
  /** The API's OpenAPI document, read on the first request of the reference page. */
  openapi: () => unknown;
  /** Where the API is below the host's root; the tool pages call its public tools. Default `/api/v1`. */
  apiBasePath?: string;
  /** Where the tool pages are, at the host's root. Default `/tools`. */
  toolsPath?: string;
  /** Serve the API reference at `{apiBasePath}/docs`; default true. */
  apiReference?: boolean;
  /** Serve the tool pages; default true. */
  tools?: boolean;
  /**
   * Also answer `/` and `/docs` at the host's root with a redirect to the tool pages and the
   * reference, where a person tries first. Default false: a host that embeds the API usually
   * owns its root; `incasso serve` turns it on.
   */
  rootRedirects?: boolean;
}

const assetsDir = new URL("../assets/", import.meta.url);
const require = createRequire(import.meta.url);

// RapiDoc's bundle as the build copied it into dist/rapidoc (scripts/copy-rapidoc.mjs, its version
// and licence in rapidoc.json beside it), so a host installs no rapidoc (issue 32, item 2). Run from
// the sources, before a build, the workspace's devDependency serves the same file.
function rapidocBundle(): URL | string {
  const copied = new URL("./rapidoc/rapidoc-min.js", import.meta.url);
  return existsSync(copied) ? copied : require.resolve("rapidoc/dist/rapidoc-min.js");
}

// HTML of our own pages: scripts, styles, fonts and API calls from this origin only, no framing
// (CSP Level 3). The reference allows inline styles: RapiDoc styles its elements inline.
const TOOLS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";
const REFERENCE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";
const HTML_CACHE = "no-cache";
const ASSET_CACHE = "public, max-age=3600";

function page(html: string, csp: string): StaticAsset {
  return new StaticAsset(new TextEncoder().encode(html), "text/html; charset=utf-8", HTML_CACHE, {
    "content-security-policy": csp,
    "referrer-policy": "no-referrer",
  });
}

function fileAsset(url: URL | string, contentType: string): () => StaticAsset {
  let asset: StaticAsset | undefined;
  // Read on first use: a host that never serves a page never reads the files. Codings made at
  // build time beside the file (FILE.br, FILE.gz: RapiDoc's bundle, scripts/copy-rapidoc.mjs) are
  // served as they are; the others are made on first use.
  const beside = (suffix: string) => {
    // fileURLToPath, not .pathname: an install path with a space or other escaped character.
    const path = `${url instanceof URL ? fileURLToPath(url) : url}${suffix}`;
    return existsSync(path) ? readFileSync(path) : undefined;
  };
  return () => {
    asset ??= new StaticAsset(
      readFileSync(url),
      contentType,
      ASSET_CACHE,
      {},
      {
        br: beside(".br"),
        gzip: beside(".gz"),
      },
    );
    return asset;
  };
}

function route(
  path: string,
  root: boolean,
  operationId: string,
  respond: (request: Request, url: URL) => Response,
) {
  return defineRoute({
    method: "GET",
    path,
    root,
    openapi: false,
    operationId,
    summary: operationId,
    auth: "none",
    responses: { 200: { description: "The page." } },
    handle: (ctx) => respond(ctx.request, ctx.url),
  });
}

/**
 * The web pages as a plugin of the API (decision pages-api-reference): the interactive API
 * reference at `{apiBasePath}/docs`, and the public WIK calculator and court finder at
 * `/tools/wik` and `/tools/rol-router` (overview at `/tools`), Dutch first with `?lang=en` for
 * English. They are left out of the OpenAPI document. `createIncasso()` of `@incasso/app` adds
 * this plugin; the kernel does not depend on it.
 *
 * @example
 * import { createApi } from "@incasso/server";
 * import { pagesPlugin } from "@incasso/pages";
 *
 * let api: IncassoApi;
 * api = createApi({ publicOnly: true, plugins: [pagesPlugin({ openapi: () => api.openapi() })] });
 * const res = await api.fetch(new Request("http://localhost/tools/wik"));
 * res.headers.get("content-type"); // "text/html; charset=utf-8"
 */
export function pagesPlugin(options: PagesOptions): ApiPlugin {
  const apiBasePath = (options.apiBasePath ?? "/api/v1").replace(/\/+$/, "");
  const toolsPath = (options.toolsPath ?? "/tools").replace(/\/+$/, "");
  const paths: PagePaths = { toolsPath, docsPath: `${apiBasePath}/docs`, apiBasePath };
  const routes: RouteDefinition[] = [];
  if (options.apiReference !== false) {
    let reference: StaticAsset | undefined;
    const rapidoc = fileAsset(rapidocBundle(), "text/javascript; charset=utf-8");
    const bootstrap = fileAsset(new URL("api-reference.js", assetsDir), "text/javascript; charset=utf-8");
    routes.push(
      route("/docs", false, "apiReferencePage", (request) => {
        reference ??= page(
          apiReferencePage({ document: options.openapi(), docsPath: paths.docsPath, toolsPath }),
          REFERENCE_CSP,
        );
        return reference.respond(request);
      }),
      route("/docs/assets/rapidoc-min.js", false, "apiReferenceRenderer", (request) =>
        rapidoc().respond(request),
      ),
      route("/docs/assets/api-reference.js", false, "apiReferenceScript", (request) =>
        bootstrap().respond(request),
      ),
    );
  }
  if (options.tools !== false) {
    const pages = new Map<string, StaticAsset>();
    const cached = (key: string, make: () => string) => {
      let asset = pages.get(key);
      if (!asset) {
        asset = page(make(), TOOLS_CSP);
        pages.set(key, asset);
      }
      return asset;
    };
    const script = fileAsset(new URL("tools.js", assetsDir), "text/javascript; charset=utf-8");
    const style = fileAsset(new URL("tools.css", assetsDir), "text/css; charset=utf-8");
    routes.push(
      route(toolsPath, true, "toolsIndexPage", (request, url) => {
        const lang = pageLanguage(url);
        return cached(`index-${lang}`, () => toolsIndexPage(lang, paths)).respond(request);
      }),
      route(`${toolsPath}/wik`, true, "wikPage", (request, url) => {
        const lang = pageLanguage(url);
        return cached(`wik-${lang}`, () => wikPage(lang, paths)).respond(request);
      }),
      route(`${toolsPath}/rol-router`, true, "courtPage", (request, url) => {
        const lang = pageLanguage(url);
        return cached(`court-${lang}`, () => courtPage(lang, paths)).respond(request);
      }),
      route(`${toolsPath}/assets/tools.js`, true, "toolsScript", (request) => script().respond(request)),
      route(`${toolsPath}/assets/tools.css`, true, "toolsStyle", (request) => style().respond(request)),
    );
  }
  if (options.rootRedirects) {
    // 302 Found (RFC 9110 §15.4.3): where the pages are may change with the options; a relative
    // Location is resolved against the request (§10.2.2).
    const redirect = (location: string) => () =>
      new Response(null, { status: 302, headers: { location, "cache-control": "no-cache" } });
    if (options.tools !== false) routes.push(route("/", true, "rootRedirect", redirect(toolsPath)));
    if (options.apiReference !== false)
      routes.push(route("/docs", true, "docsRedirect", redirect(paths.docsPath)));
  }
  return definePlugin({ name: "pages", routes });
}
