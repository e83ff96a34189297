import { checkPgliteSharedBuffers } from "@incasso/store-sql";

/**
 * `pgliteSharedBuffersMb` for openStore from INCASSO_PGLITE_SHARED_BUFFERS (whole MiB, 1 to
 * 1024), when set; unset or empty leaves the store's default of 16 (decision store-pglite-memory).
 * Read where the store is opened, like INCASSO_SECRET_KEY, so every command and createIncasso
 * agree on it.
 *
 * @throws {RangeError} for a value that is not such a number, naming the variable
 * @example
 * await openStore({ dataDir: ".data", ...pgliteOption(process.env.INCASSO_PGLITE_SHARED_BUFFERS) });
 */
export function pgliteOption(value: string | undefined): { pgliteSharedBuffersMb?: number } {
  if (value === undefined || value.trim() === "") return {};
  const text = value.trim();
  try {
    if (!/^\d+$/.test(text)) throw new RangeError(text);
    return { pgliteSharedBuffersMb: checkPgliteSharedBuffers(Number(text)) };
  } catch {
    throw new RangeError(
      `INCASSO_PGLITE_SHARED_BUFFERS must be a whole number of MiB from 1 to 1024, got "${value}"`,
    );
  }
}
