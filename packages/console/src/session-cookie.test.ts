import { describe, expect, it } from "vitest";
import {
  checkCsrfToken,
  csrfToken,
  newSession,
  openSession,
  readCookie,
  sealSession,
  setCookieHeader,
} from "./session-cookie.js";

const secret = new TextEncoder().encode("0123456789abcdef0123456789abcdef");
const other = new TextEncoder().encode("fedcba9876543210fedcba9876543210");
const t0 = new Date("2026-11-25T09:00:00Z");
const later = (ms: number) => new Date(t0.getTime() + ms);
const limits = { maxAgeMs: 8 * 3600_000, idleMs: 30 * 60_000 };

describe("session cookie", () => {
  it("opens what it sealed, with the same operator, nonce and times", () => {
    const session = newSession("opr_1", t0);
    const opened = openSession(sealSession(session, secret), secret, later(60_000), limits);
    expect(opened).toEqual({
      operatorId: "opr_1",
      nonce: session.nonce,
      issuedAt: t0.getTime(),
      lastSeen: t0.getTime(),
    });
    expect(session.nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it("refuses another secret, a changed payload and a changed signature", () => {
    const value = sealSession(newSession("opr_1", t0), secret);
    expect(openSession(value, other, t0, limits)).toBeUndefined();
    const [payload, sig] = value.split(".") as [string, string];
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), o: "opr_admin" }),
    ).toString("base64url");
    expect(openSession(`${forged}.${sig}`, secret, t0, limits)).toBeUndefined();
    expect(openSession(`${payload}.${sig.slice(0, -2)}AA`, secret, t0, limits)).toBeUndefined();
    expect(openSession("garbage", secret, t0, limits)).toBeUndefined();
    expect(openSession("a.b.c", secret, t0, limits)).toBeUndefined();
  });

  it("expires after 30 idle minutes and after 8 hours however active", () => {
    const session = newSession("opr_1", t0);
    const value = sealSession(session, secret);
    expect(openSession(value, secret, later(30 * 60_000 - 1), limits)).toBeDefined();
    expect(openSession(value, secret, later(30 * 60_000), limits)).toBeUndefined();
    const renewed = sealSession({ ...session, lastSeen: later(8 * 3600_000 - 60_000).getTime() }, secret);
    expect(openSession(renewed, secret, later(8 * 3600_000 - 1), limits)).toBeDefined();
    expect(openSession(renewed, secret, later(8 * 3600_000), limits)).toBeUndefined();
  });
});

describe("CSRF token", () => {
  it("is bound to the session and checked exactly", () => {
    const a = newSession("opr_1", t0);
    const b = newSession("opr_1", t0);
    const token = csrfToken(a, secret);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(checkCsrfToken(a, secret, token)).toBe(true);
    expect(checkCsrfToken(b, secret, token)).toBe(false);
    expect(checkCsrfToken(a, other, token)).toBe(false);
    expect(checkCsrfToken(a, secret, `${token}x`)).toBe(false);
    expect(checkCsrfToken(a, secret, "")).toBe(false);
    expect(checkCsrfToken(a, secret, null)).toBe(false);
  });
});

describe("cookie headers", () => {
  it("sets HttpOnly, SameSite=Strict and Secure on TLS, and clears with Max-Age=0", () => {
    expect(
      setCookieHeader("incasso_console", "v.s", { path: "/console", secure: true, maxAgeSeconds: 1800 }),
    ).toBe("incasso_console=v.s; Path=/console; Max-Age=1800; HttpOnly; SameSite=Strict; Secure");
    expect(
      setCookieHeader("incasso_console", undefined, { path: "/console", secure: false, maxAgeSeconds: 1800 }),
    ).toBe("incasso_console=; Path=/console; Max-Age=0; HttpOnly; SameSite=Strict");
  });

  it("reads one cookie of a Cookie header", () => {
    expect(readCookie("a=1; incasso_console=x.y; b=2", "incasso_console")).toBe("x.y");
    expect(readCookie("a=1", "incasso_console")).toBeUndefined();
    expect(readCookie(null, "incasso_console")).toBeUndefined();
  });
});
