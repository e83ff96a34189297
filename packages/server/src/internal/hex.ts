/** Two lower-case hex digits for each byte value: ids and digests are formatted without toString per byte. */
export const HEX_BYTE: readonly string[] = Array.from({ length: 256 }, (_, byte) =>
  byte.toString(16).padStart(2, "0"),
);
