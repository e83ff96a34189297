import type { ActiveContentKind } from "@incasso/pdf-guard";
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

const ACTIVE_CONTENT_LABELS: Record<ActiveContentKind, string> = {
  javascript: "JavaScript",
  launch: "een Launch-actie (opent een ander programma of bestand)",
  embedded_file: "een ingesloten bestand",
  bytes_before_header: "tekens vóór de %PDF-kop (het bestand is ook iets anders, zoals een HTML-pagina)",
};

// Decision pdf-guard-active-content: the file is accepted (the spec asks only for a valid PDF that
// opens without a password); the warning names it by its stored filename and its place in the
// request, so two files of one name are told apart.
export function activeContentWarning(
  attachment: { index: number; filename: string },
  kinds: readonly ActiveContentKind[],
): Warning {
  return {
    code: "pdf_active_content",
    message: `Bijlage ${attachment.filename} (attachments[${attachment.index}]) bevat actieve inhoud: ${kinds.map((k) => ACTIVE_CONTENT_LABELS[k]).join(", ")}. Het bestand is ongewijzigd aangenomen; de opdracht is wel verwerkt.`,
    invoice_number: null,
  };
}
