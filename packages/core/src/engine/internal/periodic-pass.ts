/**
 * Runs `pass` at once and then `intervalMs` after each pass ends, until stopped: the loop of the
 * engine's background jobs (the placement reconciler, the handler sweeper). A pass that fails is
 * reported to `onError` (the database is out of reach: the next pass tries again). The timer does
 * not keep the process alive. `stop()` aborts the signal the pass was given, so a pass can stop
 * waiting, and resolves once the pass in progress ended.
 */
export function startPeriodicPass(
  pass: (signal: AbortSignal) => Promise<unknown>,
  options: { intervalMs: number; onError: (error: unknown) => void },
): { stop(): Promise<void> } {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stopping = new AbortController();
  const next = () => {
    running = pass(stopping.signal)
      .then(() => undefined)
      .catch(options.onError)
      .finally(() => {
        if (stopped) return;
        timer = setTimeout(next, options.intervalMs);
        timer.unref?.();
      });
  };
  next();
  return {
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      stopping.abort();
      await running;
    },
  };
}
