/**
 * One server per state file. Two servers on one `--state-file` would each append to the journal
 * and write snapshots over the other's, so `serve` first creates `<state file>.lock` with O_EXCL
 * (mode 0600), holding its pid, and removes it when it stops cleanly. A lock whose process is
 * alive refuses the start (PSIM_STATE_FILE_LOCKED); a lock whose process is gone — killed with
 * SIGKILL, a crash — is stale and taken over.
 */
import { closeSync, fstatSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { PlatformSimError } from '../../sim/options.ts';

export const lockPath = (stateFile: string): string => `${stateFile}.lock`;

export interface StateFileLock {
  /** Removes the lock (once; later calls do nothing). */
  release(): void;
}

/**
 * Locks this process holds: the file it created at each lock path, by device and inode (the same
 * file whichever path names it). A lock naming this process's own pid that is not among them was
 * left by an earlier process that had the same pid (pid 1 in a container restarted on the same volume).
 */
const held = new Map<string, string>();

const fileId = (st: Stats): string => `${st.dev}:${st.ino}`;

/** Attempts at the lock: each one lost means another process took it meanwhile. */
const lockAttemptsMax = 8;

/** How long a lock that names no pid yet is given to be written by the process that created it. */
const unwrittenGraceMs = 200;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const errorCode = (e: unknown): string | undefined => (e as NodeJS.ErrnoException).code;

/** Creates the lock holding this process's pid: the file's id, or null when a lock exists. */
function create(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (e) {
    if (errorCode(e) === 'EEXIST') return null;
    throw e;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
    return fileId(fstatSync(fd));
  } finally {
    closeSync(fd);
  }
}

interface Holder {
  /** The pid the lock names, or null when it names none (never written, or not a lock of ours). */
  readonly pid: number | null;
  readonly text: string;
  readonly id: string;
}

/** Who holds the lock, or null when it is gone. */
function holderOf(path: string): Holder | null {
  try {
    const id = fileId(statSync(path));
    const text = readFileSync(path, 'utf8');
    const pid = /^[1-9]\d{0,9}\n?$/.test(text) ? Number(text.trim()) : null;
    return { pid, text, id };
  } catch (e) {
    if (errorCode(e) === 'ENOENT') return null;
    throw e;
  }
}

/** Whether the process `pid` holding the lock file `id` is alive (signal 0 checks without signalling). */
function alive(pid: number, id: string): boolean {
  if (pid === process.pid) return [...held.values()].includes(id);
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, under another user.
    return errorCode(e) === 'EPERM';
  }
}

/**
 * Removes a stale lock — only the one judged stale: it is moved aside first, and if what moved is
 * not that lock (another process took the stale lock over in between) it is put back.
 */
function removeStale(path: string, stale: Holder): void {
  const aside = `${path}.stale-${process.pid}`;
  try {
    renameSync(path, aside);
  } catch (e) {
    if (errorCode(e) === 'ENOENT') return;
    throw e;
  }
  const moved = holderOf(aside);
  if (moved !== null && (moved.id !== stale.id || moved.text !== stale.text)) {
    try {
      linkSync(aside, path);
    } catch {
      // A third process created the lock meanwhile: the next attempt finds it.
    }
  }
  unlinkSync(aside);
}

function locked(stateFile: string, path: string, pid: number): PlatformSimError {
  return new PlatformSimError(
    'PSIM_STATE_FILE_LOCKED',
    `--state-file ${stateFile}: in use by the server running as process ${pid} (lock ${path}); two servers would overwrite each other's journal: stop that one first (if process ${pid} is no platform-sim server, remove the lock)`,
  );
}

function release(path: string): void {
  const id = held.get(path);
  if (id === undefined) return;
  held.delete(path);
  try {
    if (holderOf(path)?.id === id) unlinkSync(path);
  } catch {
    // Already gone, or the directory with it: nothing is held any more.
  }
}

/** A process that exits without stopping its servers (a second SIGINT) leaves no lock behind. */
let releasedAtExit = false;

/** Takes the lock of `stateFile`, or throws PSIM_STATE_FILE_LOCKED naming the process that holds it. */
export async function lockStateFile(stateFile: string): Promise<StateFileLock> {
  const path = lockPath(stateFile);
  let unwrittenSeen = false;
  for (let attempt = 0; attempt < lockAttemptsMax; attempt++) {
    const id = create(path);
    if (id !== null) {
      held.set(path, id);
      if (!releasedAtExit) {
        releasedAtExit = true;
        process.once('exit', () => {
          for (const p of [...held.keys()]) release(p);
        });
      }
      return { release: () => release(path) };
    }
    const holder = holderOf(path);
    if (holder === null) continue;
    if (holder.pid === null && !unwrittenSeen) {
      // Created an instant ago, its pid not written yet: look again.
      unwrittenSeen = true;
      await sleep(unwrittenGraceMs);
      continue;
    }
    if (holder.pid !== null && alive(holder.pid, holder.id)) throw locked(stateFile, path, holder.pid);
    removeStale(path, holder);
  }
  throw new PlatformSimError('PSIM_STATE_FILE_LOCKED', `--state-file ${stateFile}: its lock ${path} kept being taken by other processes starting on it`);
}
