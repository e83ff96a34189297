import type { Warning } from "../../orders/warnings.js";

// Warning messages are Dutch (spec Warning: "message: explanation in Dutch"). The meanings of
// attachment_upload_failed, claim_attach_failed, debtor_address_failed and multiple_open_cases are
// "not shown" in the spec; ours are in docs/decisions/orders-engine-warnings.md.

export function testModeWarning(): Warning {
  return {
    code: "test_mode",
    message: "Testmodus: de opdracht is volledig gecontroleerd, maar er is geen dossier aangemaakt.",
    invoice_number: null,
  };
}

export function attachedWarning(caseNumber: string): Warning {
  return {
    code: "attached_to_existing_case",
    message: `De facturen zijn toegevoegd aan het openstaande dossier ${caseNumber} voor dit klantnummer.`,
    invoice_number: null,
  };
}

export function multipleOpenCasesWarning(chosen: string, others: readonly string[]): Warning {
  return {
    code: "multiple_open_cases",
    message: `Voor dit klantnummer staan meerdere dossiers open (${[chosen, ...others].join(", ")}); de opdracht is toegevoegd aan het oudste, ${chosen}.`,
    invoice_number: null,
  };
}

export function debtorAddressFailedWarning(name: string): Warning {
  return {
    code: "debtor_address_failed",
    message: `Het adres van debiteur ${name} kon niet in het dossier worden vastgelegd. De opdracht is wel verwerkt.`,
    invoice_number: null,
  };
}

export function claimAttachFailedWarning(invoiceNumber: string): Warning {
  return {
    code: "claim_attach_failed",
    message: `Factuur ${invoiceNumber} kon niet aan de vordering in het dossier worden toegevoegd. De opdracht is wel verwerkt.`,
    invoice_number: invoiceNumber,
  };
}

export function attachmentUploadFailedWarning(filename: string): Warning {
  return {
    code: "attachment_upload_failed",
    message: `Bijlage ${filename} kon niet in het dossier worden opgeslagen. De opdracht is wel verwerkt.`,
    invoice_number: null,
  };
}
