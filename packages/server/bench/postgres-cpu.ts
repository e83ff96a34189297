// CPU time of the PostgreSQL server's processes on this machine, for the cost benchmarks: read
// from /proc/<pid>/stat (Linux), so only a server on the same machine is measured.
import { readdirSync, readFileSync } from "node:fs";

/** CPU ticks (utime + stime) per pid of the processes named postgres. */
export function postgresTicks(): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (!stat.includes("(postgres)")) continue;
      // Fields after the command name (which ends with ")"): state is field 3, utime 14, stime 15.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]));
    } catch {
      // The process ended while the directory was read.
    }
  }
  return ticks;
}

/** Ticks spent between two readings, by the given pids only or by every postgres process. */
export function ticksSince(
  before: Map<number, number>,
  after: Map<number, number>,
  pids?: Set<number>,
): number {
  let sum = 0;
  for (const [pid, t] of after) if (pids === undefined || pids.has(pid)) sum += t - (before.get(pid) ?? 0);
  return sum;
}
