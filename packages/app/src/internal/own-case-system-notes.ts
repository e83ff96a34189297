import type { Logger } from "@incasso/server";

/**
 * What a host's own case system turns off, and why, for the start's log (issue 33, item 3: no
 * silent switch-off). The operator console works the built-in case system's tables only, and a
 * host's case system sends its own 14-day letters; each line says how to keep the feature.
 * Nothing is said for a feature the host switched off itself.
 *
 * @example
 * ownCaseSystemNotes({ console: undefined, letters: undefined }); // two lines
 */
export function ownCaseSystemNotes(options: { console: unknown; letters: unknown }): string[] {
  const notes: string[] = [];
  if (options.console !== false) {
    notes.push(
      "console: off, because the case system is the host's own and the console works the built-in one only " +
        "(to keep it with your own onChange, pass builtInCaseSystem: { onChange } instead of caseSystem)",
    );
  }
  if (options.letters === undefined) {
    notes.push(
      "letters: off, because a host's own case system sends its own 14-day letters (letters: {} runs the letter runner anyway)",
    );
  }
  return notes;
}

/**
 * Logs {@link ownCaseSystemNotes} at `info`, one line each, with the feature as a field.
 *
 * @example
 * reportOwnCaseSystem(logger, { console: undefined, letters: false }); // logs the console line
 */
export function reportOwnCaseSystem(logger: Logger, options: { console: unknown; letters: unknown }): void {
  for (const note of ownCaseSystemNotes(options)) {
    logger.info(note, { feature: note.slice(0, note.indexOf(":")), reason: "own_case_system" });
  }
}
