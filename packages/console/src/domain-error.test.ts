import { describe, expect, it } from "vitest";
import { domainErrorMessage } from "./domain-error.js";

/** An error with a code, as the case system's, core's and the drivers' errors have. */
function coded(code: string, message = "refused"): Error {
  return Object.assign(new Error(message), { code });
}

describe("domainErrorMessage", () => {
  it("gives the Dutch sentence of a known refusal", () => {
    expect(domainErrorMessage(coded("task_not_open"))).toBe("Deze taak is al afgehandeld of afgewezen.");
  });

  it("gives a Dutch sentence naming an unknown refusal code", () => {
    expect(domainErrorMessage(coded("agency_stop_list"))).toBe(
      "De wijziging is geweigerd (agency_stop_list).",
    );
  });

  it("names the refused letter detail", () => {
    expect(domainErrorMessage(coded("invalid_letter_details", "iban: not a valid IBAN"))).toMatch(
      /^Briefgegevens niet opgeslagen\. /,
    );
  });

  it("leaves a database or network fault to the error page", () => {
    for (const code of ["ECONNREFUSED", "57P01", "08006", "ERR_STREAM_PREMATURE_CLOSE"]) {
      expect(domainErrorMessage(coded(code))).toBeUndefined();
    }
    expect(domainErrorMessage(new Error("no code"))).toBeUndefined();
    expect(domainErrorMessage("not an error")).toBeUndefined();
  });
});
