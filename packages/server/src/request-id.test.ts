import { describe, expect, it } from "vitest";
import { newRequestId, requestIdFor, requestIdFromHeader } from "./request-id.js";

describe("request ids", () => {
  it("are req_ and 32 hex digits, and never repeat within a process", () => {
    const ids = Array.from({ length: 10_000 }, () => newRequestId());
    for (const id of ids.slice(0, 100)) expect(id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(10_000);
    // One process shares its random prefix; the counter part tells its ids apart.
    expect(ids[1]?.slice(0, 20)).toBe(ids[0]?.slice(0, 20));
  });

  it("keep counting in order when the lower 24 bits of the counter wrap", () => {
    let previous = newRequestId();
    let wraps = 0;
    for (let i = 0; i < 0x100_0000; i++) {
      const id = newRequestId();
      if (id.endsWith("000000")) {
        wraps++;
        expect(previous.endsWith("ffffff")).toBe(true);
        expect(BigInt(`0x${id.slice(20)}`)).toBe(BigInt(`0x${previous.slice(20)}`) + 1n);
      }
      previous = id;
    }
    expect(wraps).toBe(1);
  });

  it("echo a short plain X-Request-Id and replace anything else", () => {
    const withId = (value: string) =>
      new Request("http://localhost/", { headers: { "x-request-id": value } });
    expect(requestIdFor(withId("client-7.abc:1"))).toBe("client-7.abc:1");
    expect(requestIdFor(withId("two words"))).toMatch(/^req_[0-9a-f]{32}$/);
    expect(requestIdFor(withId("x".repeat(129)))).toMatch(/^req_[0-9a-f]{32}$/);
    expect(requestIdFor(new Request("http://localhost/"))).toMatch(/^req_[0-9a-f]{32}$/);
    expect(requestIdFromHeader("client-7.abc:1")).toBe("client-7.abc:1");
    expect(requestIdFromHeader("a\r\nx-evil: 1")).toMatch(/^req_[0-9a-f]{32}$/);
    expect(requestIdFromHeader("")).toMatch(/^req_[0-9a-f]{32}$/);
    expect(requestIdFromHeader(undefined)).toMatch(/^req_[0-9a-f]{32}$/);
  });
});
