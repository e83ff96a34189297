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
});
