// Benchmark helper: a stand-in for OpenAI on 127.0.0.1 that answers as a model trusting the
// `read_facts` the OpenAI checker sends would: a declared amount other than the invoice's total
// and its amount due is `ai_invoice_mismatch`. It measures what reaches the model (the facts, the
// request) through the same harness as the rules checker, not a model's reading.
import type { FakeAnswer } from "../src/internal/testing/fake-openai.js";

interface Declared {
  invoices: Array<{ invoice_number: string; amount_cents: number }>;
  attachments: Array<{
    filename: string;
    document_type: string | null;
    read_facts: { total_cents: number | null; amount_due_cents: number | null };
  }>;
}

/** The stand-in's answer to one Responses API request body. */
export function standInAnswer(body: Record<string, unknown>): FakeAnswer {
  const input = body.input as Array<{ content: Array<{ type: string; text?: string }> }>;
  const text = input[0]?.content.find((c) => c.type === "input_text")?.text ?? "";
  const declared = JSON.parse(text.slice(text.indexOf("{"))) as Declared;
  const invoice = declared.invoices.length === 1 ? declared.invoices[0] : undefined;
  const warnings = declared.attachments.flatMap((a) => {
    const { total_cents: total, amount_due_cents: due } = a.read_facts;
    if (!invoice || a.document_type !== "invoice" || total === null) return [];
    if (invoice.amount_cents === total || invoice.amount_cents === due) return [];
    return [
      {
        code: "ai_invoice_mismatch",
        message: `Het totaal in "${a.filename}" wijkt af van het opgegeven bedrag.`,
        invoice_number: invoice.invoice_number,
      },
    ];
  });
  return { kind: "json", text: JSON.stringify({ warnings }) };
}
