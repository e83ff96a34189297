import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

// The agency's own credential beside the API keys: a token the host issues and signs with a
// secret of its own (HMAC-SHA256, RFC 2104), carrying the principal it stands for. Every process
// that knows the secret accepts it, with no lookup.

const PREFIX = "agt_";

/**
 * A signed token for `principal`, valid for `ttlSeconds`. Its `keyId` is a fresh `tok_…`, never a
 * store key's id, so the token has counters and idempotency records of its own.
 *
 * @param {string} secret
 * @param {import("@incasso/core").Principal} principal
 * @param {{ now: Date, ttlSeconds?: number }} options
 * @returns {{ token: string, keyId: string, expiresAt: string }}
 * @example
 * const { token } = issueToken(secret, requirePrincipal(ctx), { now: ctx.now() });
 */
export function issueToken(secret, principal, options) {
  const keyId = `tok_${randomBytes(12).toString("hex")}`;
  const expires = new Date(options.now.getTime() + (options.ttlSeconds ?? 3600) * 1000);
  const claims = { ...principal, keyId, exp: Math.floor(expires.getTime() / 1000) };
  const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
  return { token: `${PREFIX}${payload}.${sign(secret, payload)}`, keyId, expiresAt: expires.toISOString() };
}

/**
 * The principal of a valid, unexpired token in `Authorization: Bearer agt_…`; `undefined` for
 * no token of ours (the API key check comes next) and for a bad or expired one (401).
 *
 * @param {string} secret
 * @param {Request} request
 * @param {Date} now
 * @returns {{ ours: boolean, principal?: import("@incasso/core").Principal }}
 * @example
 * const { ours, principal } = verifyToken(secret, request, new Date());
 */
export function verifyToken(secret, request, now) {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer agt_([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(header);
  if (match === null) return { ours: header.startsWith(`Bearer ${PREFIX}`) };
  const [, payload = "", signature = ""] = match;
  const expected = Buffer.from(sign(secret, payload), "base64url");
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ours: true };
  let claims;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return { ours: true };
  }
  if (typeof claims?.exp !== "number" || claims.exp * 1000 <= now.getTime()) return { ours: true };
  const { exp: _exp, ...principal } = claims;
  return { ours: true, principal };
}

function sign(secret, payload) {
  return createHmac("sha256", secret).update(payload).digest("base64url");
}
