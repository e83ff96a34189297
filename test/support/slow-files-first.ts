import { BaseSequencer, type TestSpecification } from "vitest/node";

// Files that start processes, browsers or databases of their own run longest. Started first, they
// overlap with the many short files instead of running alone at the end of the suite; a run that
// has durations from an earlier run (vitest's own cache) is ordered by those as well.
const SLOW = [
  /\/test\/(crash|pages|console|examples|webhooks|cases|install|runtimes|docs)\//,
  /\/packages\/app\/src\/(serve-|cli\/)/,
  /\/packages\/case-system-conformance\/src\/kit-catches-faults/,
  /\/packages\/server\/src\/runtime-neutral-dist/,
];

/**
 * vitest's sequencer, with the suite's slow files moved to the front.
 *
 * @example
 * // vitest.config.ts: test: { sequence: { sequencer: SlowFilesFirst } }
 */
export class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const slow = (file: TestSpecification) => SLOW.some((pattern) => pattern.test(file.moduleId));
    return [...sorted.filter(slow), ...sorted.filter((file) => !slow(file))];
  }
}
