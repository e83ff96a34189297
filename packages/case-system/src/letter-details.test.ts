import { issueApiKey } from "@incasso/core";
import type { SqlStore } from "@incasso/store-sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkLetterDetailsUpdate, readLetterDetails, saveLetterDetails } from "./letter-details.js";
import { openCaseSystemStore } from "./open-case-system-store.js";

let store: SqlStore;
let organisationId: string;
beforeAll(async () => {
  store = await openCaseSystemStore();
  organisationId = (await issueApiKey(store, { organisation: "Details BV", mode: "test" })).record
    .organisationId;
});
afterAll(() => store.close());

describe("checkLetterDetailsUpdate", () => {
  it("normalises the IBAN, BIC, KvK number and postal code, and trims text", () => {
    expect(
      checkLetterDetailsUpdate({
        sender_name: "  Incassobureau   Voorbeeld B.V. ",
        iban: "nl91 abna 0417 1643 00",
        bic: "abnanl2a",
        kvk_number: "1234 5678",
        postal_code: "1015aa",
        phone: "+31 20 123 4567",
        email: " info@voorbeeld.nl ",
        street: null,
      }),
    ).toEqual({
      sender_name: "Incassobureau Voorbeeld B.V.",
      iban: "NL91ABNA0417164300",
      bic: "ABNANL2A",
      kvk_number: "12345678",
      postal_code: "1015 AA",
      phone: "+31 20 123 4567",
      email: "info@voorbeeld.nl",
      street: null,
    });
  });

  it.each([
    [
      { iban: "NL92ABNA0417164300" },
      "iban: NL92ABNA0417164300 is not a valid IBAN: its check digits do not match (ISO 13616 mod-97).",
    ],
    [{ kvk_number: "1234567" }, "kvk_number: 1234567 is not a KvK number of 8 digits."],
    [{ bic: "ABN" }, "bic: ABN is not a BIC (8 or 11 letters and digits, ISO 9362)."],
    [{ postal_code: "12345" }, "postal_code: 12345 is not a Dutch postal code like 1234 AB."],
    [{ email: "geen-adres" }, "email: geen-adres is not an e-mail address."],
    [
      { phone: "bel me" },
      "phone: bel me is not a telephone number (digits, spaces, -, ( ) and a leading +).",
    ],
    [{ city: "  " }, "city: must not be empty (null clears it)."],
    [{ colour: "red" }, "Unknown letter detail: colour."],
  ])("refuses %j with invalid_letter_details", (update, message) => {
    expect(() => checkLetterDetailsUpdate(update as never)).toThrow(
      expect.objectContaining({ code: "invalid_letter_details", message }),
    );
  });
});

describe("saveLetterDetails and readLetterDetails", () => {
  it("reads all null before any are set, keeps fields left out, and clears a field set to null", async () => {
    expect(await readLetterDetails(store.database, organisationId)).toEqual({
      sender_name: null,
      street: null,
      postal_code: null,
      city: null,
      iban: null,
      bic: null,
      kvk_number: null,
      phone: null,
      email: null,
      updated_at: null,
    });
    const first = new Date("2026-11-25T10:00:00.000Z");
    await saveLetterDetails(
      store.database,
      organisationId,
      { iban: "NL91 ABNA 0417 1643 00", bic: "ABNANL2A" },
      first,
    );
    const second = new Date("2026-11-25T11:00:00.000Z");
    expect(
      await saveLetterDetails(store.database, organisationId, { city: "Amsterdam", bic: null }, second),
    ).toEqual({
      sender_name: null,
      street: null,
      postal_code: null,
      city: "Amsterdam",
      iban: "NL91ABNA0417164300",
      bic: null,
      kvk_number: null,
      phone: null,
      email: null,
      updated_at: "2026-11-25T11:00:00.000Z",
    });
  });

  it("stores nothing when a value is refused", async () => {
    const before = await readLetterDetails(store.database, organisationId);
    await expect(
      saveLetterDetails(store.database, organisationId, { city: "Utrecht", iban: "NL00XXXX" }, new Date()),
    ).rejects.toMatchObject({ code: "invalid_letter_details" });
    expect(await readLetterDetails(store.database, organisationId)).toEqual(before);
  });
});
