import { ApiError } from "../api-error.js";

/** Longest request target we route; longer ones get 414 (RFC 9110 §15.5.15). */
export const MAX_URL_LENGTH = 8192;

/**
 * Refuses request targets that cannot be routed safely, before any routing happens: overlong URLs
 * (414 `uri_too_long`) and paths with malformed percent-encoding (400 `malformed_url`).
 */
export function assertRoutableUrl(request: Request): void {
  if (request.url.length > MAX_URL_LENGTH) {
    throw new ApiError({
      status: 414,
      code: "uri_too_long",
      detail: `The request URL is longer than ${MAX_URL_LENGTH} characters.`,
    });
  }
  const url = request.url;
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const end = url.indexOf("?", start);
  const path = start < 0 ? "/" : url.slice(start, end < 0 ? undefined : end);
  if (!path.includes("%")) return;
  try {
    decodeURIComponent(path);
  } catch {
    throw new ApiError({
      status: 400,
      code: "malformed_url",
      detail: "The request path contains malformed percent-encoding.",
    });
  }
}
