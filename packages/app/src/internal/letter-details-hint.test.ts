import { describe, expect, it } from "vitest";
import { letterDetailsHint, organisationsWithoutLetterIban } from "./letter-details-hint.js";

describe("the start line on missing letter details", () => {
  it("names the organisation and the command that sets its details", () => {
    expect(letterDetailsHint(["Demo"])).toBe(
      "letters: no IBAN for Demo, so its 14-day letters wait; set the sender's details with: incasso letter-details set --organisation Demo --iban IBAN --street TEXT --postal-code CODE --city CITY",
    );
    expect(letterDetailsHint(["Acme BV", "Demo"])).toBe(
      'letters: no IBAN for 2 organisations (Acme BV, Demo), so their 14-day letters wait; set the sender\'s details with: incasso letter-details set --organisation "Acme BV" --iban IBAN --street TEXT --postal-code CODE --city CITY',
    );
    expect(letterDetailsHint([])).toBeUndefined();
  });

  it("finds none where the store has no case tables", async () => {
    const store = {
      database: {
        query: async () => {
          throw new Error('relation "case_letter_details" does not exist');
        },
      },
    } as unknown as Parameters<typeof organisationsWithoutLetterIban>[0];
    expect(await organisationsWithoutLetterIban(store)).toEqual([]);
  });
});
