import { describe, expect, it } from "vitest";
import { readDeliveryHeaders } from "./read-headers.js";

describe("readDeliveryHeaders", () => {
  it("reads all three from a record in any case, ignoring other headers", () => {
    expect(
      readDeliveryHeaders({
        "Content-Type": "application/json",
        "X-Service-Signature": "sig",
        "x-service-timestamp": "1",
        "X-SERVICE-EVENT": "ping",
        "x-service-signatures": "not this one",
        "x-service-eventx": "nor this",
      }),
    ).toEqual({ signature: "sig", timestamp: "1", event: "ping" });
  });

  it("reads from anything with get(), such as web Headers", () => {
    expect(readDeliveryHeaders(new Headers({ "x-service-timestamp": "1" }))).toEqual({
      signature: undefined,
      timestamp: "1",
      event: undefined,
    });
  });

  it("skips undefined values and empty arrays, takes one-element arrays", () => {
    expect(
      readDeliveryHeaders({
        "x-service-signature": undefined,
        "X-Service-Signature": ["sig"],
        "x-service-event": [],
      }),
    ).toEqual({ signature: "sig", timestamp: undefined, event: undefined });
  });

  it("throws malformed_header naming the header when it occurs twice", () => {
    expect(() => readDeliveryHeaders({ "x-service-event": "a", "X-Service-Event": "a" })).toThrow(
      expect.objectContaining({ code: "malformed_header", header: "x-service-event" }),
    );
    expect(() => readDeliveryHeaders({ "x-service-timestamp": ["1", "2"] })).toThrow(
      expect.objectContaining({ code: "malformed_header", header: "x-service-timestamp" }),
    );
  });

  // A hand-built or deserialised record can hold anything; reading it must end in
  // malformed_header, never in a TypeError from calling string methods on it
  // (docs/decisions/webhook-signing-headers.md).
  it.each([
    ["null", null],
    ["a number", 1795255200],
    ["a boolean", true],
    ["an object", { value: "1" }],
    ["an array holding a number", [1]],
    ["an array holding null", [null]],
    ["an array with a hole", new Array(1)],
  ])("throws malformed_header naming the header for a value that is %s", (_, value) => {
    for (const name of ["x-service-signature", "X-Service-Timestamp", "x-service-event"]) {
      const headers = { [name]: value } as unknown as Record<string, string>;
      expect(() => readDeliveryHeaders(headers)).toThrow(
        expect.objectContaining({
          name: "WebhookVerificationError",
          code: "malformed_header",
          header: name.toLowerCase(),
          message: `Header ${name.toLowerCase()} is neither a string nor an array of strings.`,
        }),
      );
    }
  });

  it("throws malformed_header when a Headers-like get() returns something other than a string", () => {
    const headers = { get: (name: string) => (name === "x-service-timestamp" ? 1795255200 : null) };
    expect(() => readDeliveryHeaders(headers as unknown as Headers)).toThrow(
      expect.objectContaining({ code: "malformed_header", header: "x-service-timestamp" }),
    );
  });

  it("ignores other headers whatever they hold", () => {
    const headers = { "content-length": 12, "x-other": null, "x-service-event": "ping" };
    expect(readDeliveryHeaders(headers as unknown as Record<string, string>)).toEqual({
      signature: undefined,
      timestamp: undefined,
      event: "ping",
    });
  });
});
