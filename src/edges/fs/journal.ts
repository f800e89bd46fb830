/**
 * The journal beside a state file (`<state file>.journal`): one line per committed step that
 * changed the world, `{"seq":n,"changes":[…]}` (worldDiff.ts), appended and fdatasynced before
 * the step's answer is sent. A line counts once its newline is on disk: a process killed mid-write
 * leaves a last line without one, or one that does not parse, and that line was never
 * acknowledged, so reading drops it. Any other line that does not read is corruption.
 */
import { closeSync, fchmodSync, fdatasyncSync, fstatSync, fsyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { Change } from './worldDiff.ts';

export interface JournalEntry {
  readonly seq: number;
  readonly changes: readonly Change[];
}

export interface JournalRead {
  readonly entries: readonly JournalEntry[];
  /** Bytes of complete entries; anything after is a torn last line. */
  readonly validBytes: number;
  readonly totalBytes: number;
}

export class JournalCorrupt extends Error {}

function entryOf(text: string): JournalEntry | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const { seq, changes } = v as { seq?: unknown; changes?: unknown };
  return Number.isInteger(seq) && (seq as number) > 0 && Array.isArray(changes) ? { seq: seq as number, changes: changes as Change[] } : null;
}

/** The journal's entries; throws JournalCorrupt for a bad line that is not the last. */
export function readJournal(path: string): JournalRead {
  const bytes = readFileSync(path);
  const entries: JournalEntry[] = [];
  let start = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(10, start);
    if (end < 0) break;
    const entry = entryOf(bytes.toString('utf8', start, end));
    if (entry === null) {
      if (end + 1 === bytes.length) break;
      throw new JournalCorrupt(`line ${entries.length + 1} (byte ${start}) is not a journal entry`);
    }
    entries.push(entry);
    start = end + 1;
  }
  return { entries, validBytes: start, totalBytes: bytes.length };
}

/** An open journal: appends are durable when `append` returns. Created with mode 0600 (it holds Secret data). */
export class JournalWriter {
  readonly #fd: number;
  #bytes: number;

  /** Opens for appending, after cutting a torn last line off at `validBytes`. */
  constructor(path: string, validBytes: number) {
    this.#fd = openSync(path, 'a', 0o600);
    fchmodSync(this.#fd, 0o600);
    if (fstatSync(this.#fd).size > validBytes) {
      ftruncateSync(this.#fd, validBytes);
      fsyncSync(this.#fd);
    }
    this.#bytes = validBytes;
  }

  get bytes(): number {
    return this.#bytes;
  }

  append(entry: JournalEntry): void {
    const line = Buffer.from(`${JSON.stringify(entry)}\n`);
    try {
      for (let off = 0; off < line.length; ) off += writeSync(this.#fd, line, off);
      fdatasyncSync(this.#fd);
    } catch (e) {
      // A full disk or an I/O error: take back what got written, so the next line starts clean.
      try {
        ftruncateSync(this.#fd, this.#bytes);
      } catch {
        // the reader drops a torn last line anyway
      }
      throw e;
    }
    this.#bytes += line.length;
  }

  /** Empties the journal once a snapshot holds everything in it. */
  truncate(): void {
    ftruncateSync(this.#fd, 0);
    fsyncSync(this.#fd);
    this.#bytes = 0;
  }

  close(): void {
    closeSync(this.#fd);
  }
}
