/** The environment variable that makes the server refuse PDFs with active content. */
export const REFUSE_ACTIVE_PDF_ENV = "INCASSO_REFUSE_ACTIVE_PDF";

const ON = ["1", "true", "yes", "on"];
const OFF = ["", "0", "false", "no", "off"];

/**
 * Whether PDFs with active content are refused (decision pdf-guard-active-content): the option when
 * given, else INCASSO_REFUSE_ACTIVE_PDF read as a switch like every `incasso serve` variable. A
 * value that is neither on nor off is an error, not a quiet "off": this setting guards the files
 * handlers open.
 *
 * @throws {RangeError} for a value that is not a switch word, naming the variable
 * @example
 * refuseActivePdf(undefined, { INCASSO_REFUSE_ACTIVE_PDF: "1" }); // true
 */
export function refuseActivePdf(
  option: boolean | undefined,
  env: Record<string, string | undefined>,
): boolean {
  if (option !== undefined) return option;
  const raw = env[REFUSE_ACTIVE_PDF_ENV];
  if (raw === undefined) return false;
  const word = raw.trim().toLowerCase();
  if (ON.includes(word)) return true;
  if (OFF.includes(word)) return false;
  throw new RangeError(`${REFUSE_ACTIVE_PDF_ENV} must be 1 or 0 (true or false), got "${raw}"`);
}
