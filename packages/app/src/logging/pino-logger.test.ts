import { describe, expect, it } from "vitest";
import { createPinoLogger } from "./pino-logger.js";
import { requestLog } from "./request-log.js";

/** A logger writing JSON lines to an array, whatever stdout is. */
function captured(level: "info" | "warn" = "info") {
  const lines: Record<string, unknown>[] = [];
  const logger = createPinoLogger({
    level,
    pretty: false,
    secrets: ["sk-exact-secret-value"],
    destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  return { logger, lines };
}

describe("createPinoLogger", () => {
  it("writes one JSON object a line: level as a word, ISO time, pid, fields, msg", () => {
    const { logger, lines } = captured();
    logger.info("webhook delivered", { eventId: "evt_0123456789abcdef", attempt: 1 });
    logger.debug("not at info");
    expect(lines).toEqual([
      {
        level: "info",
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        pid: process.pid,
        eventId: "evt_0123456789abcdef",
        attempt: 1,
        msg: "webhook delivered",
      },
    ]);
  });

  it("censors secret fields by name and scrubs secrets from every string, the message included", () => {
    const { logger, lines } = captured();
    logger.warn("key svc_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345 refused", {
      key: "anything",
      secret: "anything",
      headers: { authorization: "anything" },
      OPENAI_API_KEY: "anything",
      note: "sent sk-exact-secret-value with Bearer abc and whsec_abc",
    });
    expect(lines).toEqual([
      {
        level: "warn",
        time: expect.any(String),
        pid: process.pid,
        key: "[redacted]",
        secret: "[redacted]",
        headers: { authorization: "[redacted]" },
        OPENAI_API_KEY: "[redacted]",
        note: "sent [redacted] with Bearer [redacted] and [redacted]",
        msg: "key [redacted] refused",
      },
    ]);
  });

  it("drops lines below its level", () => {
    const { logger, lines } = captured("warn");
    logger.info("dropped");
    logger.error("kept");
    expect(lines.map((l) => [l.level, l.msg])).toEqual([["error", "kept"]]);
  });
});

describe("requestLog", () => {
  it("logs a request line with the key id when authenticated, at error for a 5xx", () => {
    const { logger, lines } = captured();
    const log = requestLog(logger);
    const base = { keyMode: null, replayed: false, orderCreated: null };
    log({
      ...base,
      requestId: "r1",
      method: "GET",
      route: "/api/v1/orders/:orderId",
      status: 200,
      durationMs: 3.126,
      keyId: "key_0123456789abcdef",
      keyMode: "test",
    });
    log({ ...base, requestId: "r2", method: "GET", route: null, status: 503, durationMs: 0.04, keyId: null });
    expect(lines.map(({ time: _t, pid: _p, ...rest }) => rest)).toEqual([
      {
        level: "info",
        requestId: "r1",
        method: "GET",
        route: "/api/v1/orders/:orderId",
        status: 200,
        durationMs: 3.1,
        keyId: "key_0123456789abcdef",
        msg: "request",
      },
      {
        level: "error",
        requestId: "r2",
        method: "GET",
        route: null,
        status: 503,
        durationMs: 0,
        msg: "request",
      },
    ]);
  });
});
