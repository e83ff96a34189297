// One heavy step over a large body per turn of the event loop, for the whole process.

const waiting: (() => void)[] = [];
let scheduled = false;

function releaseOne(): void {
  waiting.shift()?.();
  if (waiting.length > 0) setTimeout(releaseOne, 0);
  else scheduled = false;
}

/**
 * Resolves in a later turn of the event loop, one waiter per turn, first come first served. A
 * request about to do a heavy step over a large body (decode, parse, hash a few MiB) waits here
 * first: with eight large orders at once, each turn runs one such step and then the I/O that
 * arrived meanwhile (GET /ping), instead of all eight steps back to back (issue 22, item 5).
 * setTimeout, not setImmediate, so every runtime has it.
 *
 * @example
 * await nextTurn();
 * const body = JSON.parse(text);
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!scheduled) {
      scheduled = true;
      setTimeout(releaseOne, 0);
    }
  });
}
