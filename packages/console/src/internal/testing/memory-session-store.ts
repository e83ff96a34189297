import type { ConsoleSessionStore } from "../../session-store.js";

/**
 * Sessions in a map, for the console's tests that run without a database (the plugin's default is
 * the table `console_sessions`, tested on PGlite and PostgreSQL in @incasso/app).
 *
 * @example
 * const sessions = memorySessionStore();
 * consolePlugin({ operators, operations, cases, database, sessions });
 */
export function memorySessionStore(): ConsoleSessionStore & { size(): number } {
  const live = new Map<string, { operatorId: string; expiresAt: number }>();
  return {
    async begin(session) {
      live.set(session.id, { operatorId: session.operatorId, expiresAt: session.expiresAt.getTime() });
    },
    async isLive(id, operatorId, now) {
      const found = live.get(id);
      return found !== undefined && found.operatorId === operatorId && found.expiresAt > now.getTime();
    },
    async end(id) {
      live.delete(id);
    },
    async endAll(operatorId) {
      let ended = 0;
      for (const [id, s] of live) {
        if (s.operatorId !== operatorId) continue;
        live.delete(id);
        ended++;
      }
      return ended;
    },
    async sweep(now) {
      for (const [id, s] of live) if (s.expiresAt <= now.getTime()) live.delete(id);
    },
    size: () => live.size,
  };
}
