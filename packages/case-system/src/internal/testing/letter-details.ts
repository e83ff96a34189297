import type { Executor } from "@incasso/store-sql";
import { type LetterDetails, saveLetterDetails } from "../../letter-details.js";

/**
 * Letter details for the case-system tests: without an IBAN no 14-day letter is made (issue 19).
 *
 * @example
 * await giveLetterDetails(store.database, organisationId);
 */
export function giveLetterDetails(db: Executor, organisationId: string): Promise<LetterDetails> {
  return saveLetterDetails(
    db,
    organisationId,
    {
      sender_name: "Incassobureau Test B.V.",
      street: "Teststraat 1",
      postal_code: "9999 ZZ",
      city: "Testdorp",
      iban: "NL91ABNA0417164300",
      kvk_number: "12345678",
      phone: "020 123 4567",
      email: "brieven@example.nl",
    },
    new Date(),
  );
}
