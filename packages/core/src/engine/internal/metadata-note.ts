// Spec CreateOrder.metadata: "stored, echoed in responses, and written as a note on the case". One
// line per key, in the order sent, so the handler reads exactly what the client sent.
export function metadataNote(orderId: string, metadata: Readonly<Record<string, string>>): string | null {
  const entries = Object.entries(metadata);
  if (entries.length === 0) return null;
  return [`Metadata bij opdracht ${orderId}:`, ...entries.map(([key, value]) => `${key}: ${value}`)].join(
    "\n",
  );
}
