import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/**
 * A body served with compression when the client accepts it: brotli, then gzip, else as is
 * (RFC 9110 §12.5.3 Accept-Encoding, §8.4 Content-Encoding). Each coding is made once, on first
 * use, since the kernel sends bodies as they are and the first-load budget counts compressed bytes
 * (decision pages-compression).
 *
 * @example
 * const css = new StaticAsset(Buffer.from("body{}"), "text/css; charset=utf-8", "public, max-age=3600");
 * const res = css.respond(new Request("http://x/", { headers: { "accept-encoding": "gzip, br" } }));
 * res.headers.get("content-encoding"); // "br"
 */
export class StaticAsset {
  readonly etag: string;
  #br: Uint8Array | undefined;
  #gzip: Uint8Array | undefined;

  /**
   * `compressed` gives codings made ahead (at build time) of the same body, served as they are
   * instead of being made on first use.
   */
  constructor(
    readonly body: Uint8Array,
    readonly contentType: string,
    readonly cacheControl: string,
    readonly extraHeaders: Record<string, string> = {},
    compressed: { br?: Uint8Array | undefined; gzip?: Uint8Array | undefined } = {},
  ) {
    this.etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
    this.#br = compressed.br;
    this.#gzip = compressed.gzip;
  }

  /** The body in the best coding the request accepts, with its validators. */
  respond(request: Request): Response {
    const headers = new Headers({
      "content-type": this.contentType,
      "cache-control": this.cacheControl,
      vary: "Accept-Encoding",
      ...this.extraHeaders,
    });
    const coding = chooseCoding(request.headers.get("accept-encoding"));
    // A strong validator per representation: each coding has its own bytes (RFC 9110 §8.8.3).
    const etag = coding === "identity" ? this.etag : `${this.etag.slice(0, -1)}-${coding}"`;
    headers.set("etag", etag);
    if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
    let body: Uint8Array = this.body;
    if (coding === "br") {
      this.#br ??= brotliCompressSync(this.body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_SIZE_HINT]: this.body.length,
        },
      });
      body = this.#br;
    } else if (coding === "gzip") {
      this.#gzip ??= gzipSync(this.body, { level: 9 });
      body = this.#gzip;
    }
    if (coding !== "identity") headers.set("content-encoding", coding);
    headers.set("content-length", String(body.byteLength));
    return new Response(body as BodyInit, { status: 200, headers });
  }
}

/**
 * The coding to send for an Accept-Encoding value: `br` or `gzip` when listed with a non-zero
 * q-value (brotli first: smaller for text), `identity` otherwise.
 *
 * @example
 * chooseCoding("gzip, deflate, br"); // "br"
 * chooseCoding("gzip;q=0, br;q=0"); // "identity"
 */
export function chooseCoding(acceptEncoding: string | null): "br" | "gzip" | "identity" {
  if (!acceptEncoding) return "identity";
  const accepted = new Set<string>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (q !== undefined && Number(q.slice(2)) === 0) continue;
    if (name) accepted.add(name.trim());
  }
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip")) return "gzip";
  return "identity";
}
