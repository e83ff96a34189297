import { ApiError } from "../api-error.js";

/** Longest request target (path and query) we route; longer ones get 414 (RFC 9110 §15.5.15). */
export const MAX_URL_LENGTH = 8192;

/**
 * Refuses request targets that cannot be routed safely, before any route does its work: overlong
 * targets (414 `uri_too_long`), and paths with malformed percent-encoding or targets with the NUL
 * character `%00` (400 `malformed_url`).
 * Reads the URL the router already parsed, so a request's URL is read once.
 */
export function assertRoutableUrl(url: URL): void {
  const path = url.pathname;
  if (path.length + url.search.length > MAX_URL_LENGTH) {
    throw new ApiError({
      status: 414,
      code: "uri_too_long",
      detail: `The request URL is longer than ${MAX_URL_LENGTH} characters.`,
    });
  }
  // No path or query value takes the NUL character, and PostgreSQL text cannot hold it: a filter
  // with one would fail in the database instead of matching nothing.
  if (path.includes("%00") || url.search.includes("%00")) {
    throw new ApiError({
      status: 400,
      code: "malformed_url",
      detail: "The request URL contains the NUL character (%00).",
    });
  }
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
