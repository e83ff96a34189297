// Large order bodies for the benchmarks of concurrent uploads: three PDFs that together reach the
// per-order total of 25 MiB (decision pdf-guard-size-units), their base64 wrapped so the body is
// the size asked for (whitespace in base64 is accepted and skipped, decision pdf-guard-base64).
import { randomUUID } from "node:crypto";
import { invoiceLines, makeTextPdf } from "../../pdf-guard/src/internal/testing/fixtures.js";

const MIB = 1024 * 1024;

/** Three PDFs of `mibEach` MiB each (default: 25 MiB together), as base64. */
export async function largePdfs(mibEach = 25 / 3): Promise<string[]> {
  const out: string[] = [];
  for (let i = 1; i <= 3; i++) {
    const lines = invoiceLines({ number: `F-${i}`, date: "2026-09-01", total: "1.250,00" });
    const pdf = await makeTextPdf({ pages: [lines], paddingBytes: Math.floor(mibEach * MIB) - 4096 });
    out.push(Buffer.from(pdf).toString("base64"));
  }
  return out;
}

/** Breaks base64 into lines of `width` characters with CRLF, as MIME does (RFC 2045 §6.8). */
export function wrap(base64: string, width: number): string {
  if (width <= 0) return base64;
  const parts: string[] = [];
  for (let at = 0; at < base64.length; at += width) parts.push(base64.slice(at, at + width));
  return parts.join("\r\n");
}

/** One order body with the three PDFs; `wrapWidth` 0 sends them unwrapped. */
export function largeOrderBody(pdfs: string[], wrapWidth = 0): string {
  const n = randomUUID().slice(0, 8);
  return JSON.stringify({
    type: "incasso",
    reference: `bench-${n}`,
    debtors: [
      {
        type: "business",
        company_name: "Voorbeeld B.V.",
        customer_number: `C-${n}`,
        address: { street: "Teststraat", house_number: "10", postal_code: "9999 ZZ", city: "Testdorp" },
      },
    ],
    invoices: [
      { invoice_number: `F-${n}-1`, invoice_date: "2026-09-01", payment_term_days: 14, amount_cents: 125000 },
    ],
    attachments: pdfs.map((content, i) => ({
      filename: `factuur-${i + 1}.pdf`,
      content_base64: wrap(content, wrapWidth),
      document_type: i === 0 ? "invoice" : "other",
    })),
  });
}

/** POSTs one order; resolves with its status (0 when the connection failed) and time in ms. */
export async function postOrder(
  url: string,
  key: string,
  body: string,
): Promise<{ status: number; ms: number; retryAfter: string | null }> {
  const started = performance.now();
  try {
    const res = await fetch(`${url}/orders`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        "idempotency-key": randomUUID(),
      },
      body,
    });
    await res.arrayBuffer();
    return {
      status: res.status,
      ms: performance.now() - started,
      retryAfter: res.headers.get("retry-after"),
    };
  } catch {
    return { status: 0, ms: performance.now() - started, retryAfter: null };
  }
}

/** Percentile `q` (0..1) of the samples. */
export function percentile(samples: number[], q: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
}
