import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * What the session cookie holds: the operator's id, a random nonce the CSRF token is bound to,
 * when the session began and when it was last used (milliseconds since the epoch).
 *
 * @example
 * const session: ConsoleSession = { operatorId: "opr_0123456789abcdef", nonce: "q1w2e3r4t5y6u7i8o9p0aa", issuedAt: 0, lastSeen: 0 };
 */
export interface ConsoleSession {
  operatorId: string;
  nonce: string;
  issuedAt: number;
  lastSeen: number;
}

/**
 * How long a session lasts: `maxAgeMs` from the login at most, and `idleMs` without a request.
 *
 * @example
 * const limits: SessionLimits = { maxAgeMs: 8 * 3600_000, idleMs: 30 * 60_000 };
 */
export interface SessionLimits {
  maxAgeMs: number;
  idleMs: number;
}

/**
 * The default session limits: a working day (8 hours) from the login, 30 minutes idle.
 *
 * @example
 * DEFAULT_SESSION_LIMITS.idleMs; // 1800000
 */
export const DEFAULT_SESSION_LIMITS: SessionLimits = { maxAgeMs: 8 * 3600_000, idleMs: 30 * 60_000 };

const b64 = (bytes: Buffer) => bytes.toString("base64url");

function sign(secret: Uint8Array, text: string): Buffer {
  return createHmac("sha256", secret).update(text).digest();
}

/**
 * A new session for an operator, begun now.
 *
 * @example
 * const session = newSession("opr_0123456789abcdef", new Date());
 */
export function newSession(operatorId: string, now: Date): ConsoleSession {
  const at = now.getTime();
  return { operatorId, nonce: b64(randomBytes(16)), issuedAt: at, lastSeen: at };
}

/**
 * The cookie value of a session: its JSON in base64url, a dot, and its HMAC-SHA256 (RFC 2104)
 * under the console's secret, so a browser cannot change who it is or when it expires.
 *
 * @example
 * const value = sealSession(session, secret); // "eyJvIjoi….3q2-…"
 */
export function sealSession(session: ConsoleSession, secret: Uint8Array): string {
  const payload = b64(
    Buffer.from(
      JSON.stringify({ o: session.operatorId, n: session.nonce, i: session.issuedAt, s: session.lastSeen }),
    ),
  );
  return `${payload}.${b64(sign(secret, payload))}`;
}

/**
 * The session in a cookie value, or undefined when the value is malformed, its signature is wrong
 * (compared in constant time), or it is past its limits at `now`.
 *
 * @example
 * const session = openSession(cookieValue, secret, new Date(), DEFAULT_SESSION_LIMITS);
 * if (!session) return redirectToLogin();
 */
export function openSession(
  value: string,
  secret: Uint8Array,
  now: Date,
  limits: SessionLimits = DEFAULT_SESSION_LIMITS,
): ConsoleSession | undefined {
  const dot = value.indexOf(".");
  if (dot <= 0 || dot !== value.lastIndexOf(".")) return undefined;
  const payload = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1), "base64url");
  const expected = sign(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  const p = parsed as { o?: unknown; n?: unknown; i?: unknown; s?: unknown };
  if (
    typeof p.o !== "string" ||
    typeof p.n !== "string" ||
    typeof p.i !== "number" ||
    typeof p.s !== "number"
  )
    return undefined;
  const at = now.getTime();
  if (at - p.i >= limits.maxAgeMs || at - p.s >= limits.idleMs || p.i > at + 60_000) return undefined;
  return { operatorId: p.o, nonce: p.n, issuedAt: p.i, lastSeen: p.s };
}

/**
 * The CSRF token of a session: an HMAC of its nonce under the console's secret, so it is bound to
 * the session and a page of another site cannot know it (OWASP CSRF cheat sheet, synchronizer
 * token).
 *
 * @example
 * const token = csrfToken(session, secret); // put in a hidden field of every form that changes something
 */
export function csrfToken(session: ConsoleSession, secret: Uint8Array): string {
  return b64(sign(secret, `csrf:${session.nonce}`));
}

/**
 * Whether a submitted token is the session's CSRF token, compared in constant time.
 *
 * @example
 * if (!checkCsrfToken(session, secret, form.get("csrf"))) return forbidden();
 */
export function checkCsrfToken(
  session: ConsoleSession,
  secret: Uint8Array,
  submitted: string | null | undefined,
): boolean {
  if (typeof submitted !== "string" || submitted.length === 0) return false;
  const given = Buffer.from(submitted);
  const expected = Buffer.from(csrfToken(session, secret));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The `Set-Cookie` value of the session cookie: HttpOnly (no script reads it), SameSite=Strict (no
 * other site's request carries it), Secure on TLS (RFC 6265bis §4.1.2), limited to the console's
 * path, and a Max-Age of the idle limit so the browser drops it too. An undefined value clears it.
 *
 * @example
 * setCookieHeader("incasso_console", "abc.def", { path: "/console", secure: true, maxAgeSeconds: 1800 });
 * // "incasso_console=abc.def; Path=/console; Max-Age=1800; HttpOnly; SameSite=Strict; Secure"
 */
export function setCookieHeader(
  name: string,
  value: string | undefined,
  options: { path: string; secure: boolean; maxAgeSeconds: number },
): string {
  const parts = [
    `${name}=${value ?? ""}`,
    `Path=${options.path}`,
    `Max-Age=${value === undefined ? 0 : options.maxAgeSeconds}`,
    "HttpOnly",
    "SameSite=Strict",
  ];
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

/**
 * One cookie's value from a `Cookie` request header (RFC 6265 §5.4), or undefined.
 *
 * @example
 * readCookie("a=1; incasso_console=x.y", "incasso_console"); // "x.y"
 */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
