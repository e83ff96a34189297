import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";

/** Name of the lock file inside the data directory. */
export const LOCK_FILE = "incasso.lock";

/**
 * What the lock file says about its holder.
 *
 * @example
 * const info: DataDirLockInfo = { pid: 4242, hostname: "web-1", command: "serve", startedAt: "2026-11-21T10:00:00.000Z" };
 */
export interface DataDirLockInfo {
  pid: number;
  hostname: string;
  command: string;
  startedAt: string;
}

/**
 * Thrown when another live process holds the data directory (code `data_dir_locked`).
 *
 * @example
 * try { await openStore({ dataDir: ".data" }); } catch (e) { if (isDataDirLockedError(e)) console.error(e.message); }
 */
export class DataDirLockedError extends Error {
  readonly code = "data_dir_locked" as const;
  readonly holder: DataDirLockInfo;
  readonly dataDir: string;

  constructor(dataDir: string, holder: DataDirLockInfo) {
    super(
      `The data directory ${dataDir} is in use by process ${holder.pid} (incasso ${holder.command}, ` +
        `started ${holder.startedAt} on ${holder.hostname}). Embedded PostgreSQL cannot be opened by two ` +
        "processes at once; stop that process, or let the CLI reach it through its operator endpoint.",
    );
    this.name = "DataDirLockedError";
    this.dataDir = dataDir;
    this.holder = holder;
  }
}

/**
 * Whether a value is a {@link DataDirLockedError}, by its code.
 *
 * @example
 * if (isDataDirLockedError(error)) process.exitCode = 3;
 */
export function isDataDirLockedError(value: unknown): value is DataDirLockedError {
  return (
    typeof value === "object" && value !== null && (value as { code?: unknown }).code === "data_dir_locked"
  );
}

/**
 * A held lock; `release` removes the file (only when it is still ours).
 *
 * @example
 * const lock = acquireDataDirLock(".data", "serve"); ... lock.release();
 */
export interface DataDirLock {
  readonly path: string;
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else, so it is alive.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The lock file's content, or undefined when there is none or it cannot be read as a lock.
 *
 * @example
 * const holder = readDataDirLock(".data");
 */
export function readDataDirLock(dataDir: string): DataDirLockInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(join(dataDir, LOCK_FILE), "utf8")) as DataDirLockInfo;
    return Number.isInteger(info.pid) ? info : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a live process holds the data directory. A lock from another host counts as live: its
 * pid means nothing here.
 *
 * @example
 * if (isDataDirHeld(".data")) console.log("a server is running");
 */
export function isDataDirHeld(dataDir: string): DataDirLockInfo | undefined {
  const holder = readDataDirLock(dataDir);
  if (holder === undefined) return undefined;
  if (holder.hostname !== hostname()) return holder;
  return isAlive(holder.pid) && holder.pid !== process.pid ? holder : undefined;
}

/**
 * Takes the data directory's lock file, created with O_EXCL so exactly one process wins. A lock
 * left by a dead process on this host is taken over; a live holder (this process included: a second
 * PGlite on one directory corrupts it) makes it throw {@link DataDirLockedError}.
 *
 * @example
 * const lock = acquireDataDirLock(".data", "serve");
 * process.on("exit", () => lock.release());
 */
export function acquireDataDirLock(dataDir: string, command: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, LOCK_FILE);
  const info: DataDirLockInfo = {
    pid: process.pid,
    hostname: hostname(),
    command,
    startedAt: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, `${JSON.stringify(info)}\n`);
      closeSync(fd);
      let released = false;
      return {
        path,
        release() {
          if (released) return;
          released = true;
          if (readDataDirLock(dataDir)?.pid === process.pid) rmSync(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readDataDirLock(dataDir);
    if (holder !== undefined && (holder.hostname !== info.hostname || isAlive(holder.pid))) {
      throw new DataDirLockedError(dataDir, holder);
    }
    // Stale (dead pid) or unreadable: move it aside atomically, then try again. rename() lets only
    // one of two racing processes move this file.
    try {
      renameSync(path, `${path}.stale-${process.pid}`);
      rmSync(`${path}.stale-${process.pid}`, { force: true });
    } catch {
      // Someone else moved it first; the next attempt sees their lock.
    }
  }
  const holder = readDataDirLock(dataDir);
  if (holder) throw new DataDirLockedError(dataDir, holder);
  throw new Error(`Could not take the lock ${path}.`);
}
