/**
 * `--state-file`: every committed change on disk before its answer, at the cost of the change.
 * A snapshot (stateFile.ts) plus a journal of what each step changed since (journal.ts,
 * worldDiff.ts); once the journal has grown as large as the snapshot, the snapshot is written
 * again and the journal emptied, so a write costs its change plus, amortised, a constant share
 * of a snapshot. Reads change no world and write nothing; a clock tick that only moved virtual
 * time writes nothing either (the next change carries the time). At start, the snapshot with the
 * journal replayed is the world as it was at the last change.
 */
import { chmodSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { limits } from '../../core/limits.ts';
import { PlatformSimError, type SimulationOptions } from '../../sim/options.ts';
import type { World } from '../../store/world.ts';
import { JournalCorrupt, JournalWriter, readJournal } from './journal.ts';
import { readStateFile, snapshotFormat, syncDirectory, writeStateFile } from './stateFile.ts';
import { applyChanges, ChangeMismatch, worldChanges, type Change } from './worldDiff.ts';

export interface LoadedState {
  readonly options: SimulationOptions;
  /** The snapshot's world with the journal replayed (a private copy). */
  readonly world: World;
  readonly seq: number;
  readonly journalValidBytes: number;
  readonly snapshotBytes: number;
}

export const journalPath = (stateFile: string): string => `${stateFile}.journal`;

const movesTime = (c: Change): boolean => c[0] === 'set' && c[1].length === 1 && c[1][0] === 'now';

const corrupt = (path: string, why: string): PlatformSimError =>
  new PlatformSimError('PSIM_SNAPSHOT_INVALID', `--state-file ${path}: ${why}; the files were left as they are (move them away to start afresh)`);

/** The saved world, or null when there is none yet. Validates everything and writes nothing. */
export function loadState(path: string): LoadedState | null {
  const jpath = journalPath(path);
  const saved = readStateFile(path);
  if (saved === null) {
    if (existsSync(jpath)) throw corrupt(path, `its journal ${jpath} exists without it`);
    return null;
  }
  let world: unknown = saved.world;
  let seq = saved.journalSeq;
  let validBytes = 0;
  if (existsSync(jpath)) {
    try {
      const journal = readJournal(jpath);
      validBytes = journal.validBytes;
      for (const entry of journal.entries) {
        // Entries up to the snapshot's are in it already (a crash between a snapshot and emptying the journal).
        if (entry.seq <= saved.journalSeq) continue;
        if (entry.seq !== seq + 1) throw new JournalCorrupt(`entry ${entry.seq} follows entry ${seq}`);
        world = applyChanges(world, entry.changes);
        seq = entry.seq;
      }
    } catch (e) {
      if (e instanceof JournalCorrupt || e instanceof ChangeMismatch) throw corrupt(path, `journal ${jpath}: ${e.message}`);
      throw corrupt(path, `journal ${jpath} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  }
  return { options: saved.options, world: world as World, seq, journalValidBytes: validBytes, snapshotBytes: saved.bytes };
}

/** What a snapshot holds besides the world: the options to resume with (plain data, no functions). */
export type SnapshotOptions = () => SimulationOptions;

export class StateStore {
  readonly #path: string;
  readonly #journal: JournalWriter;
  readonly #options: SnapshotOptions;
  /** The world the journal (with the snapshot) reaches. */
  #base: World;
  #seq: number;
  #snapshotBytes: number;
  #compaction: NodeJS.Immediate | undefined;
  #closed = false;
  /** The base's virtual time is a tick's, not in the journal yet: the next line carries it. */
  #timeUnsaved = false;

  /**
   * Opens the files for a world that starts at `world`: the loaded one (the journal goes on, a
   * torn last line cut off) or, when nothing was saved, a fresh one (written as the first
   * snapshot). Existing files are tightened to mode 0600.
   */
  constructor(path: string, loaded: LoadedState | null, world: World, options: SnapshotOptions) {
    this.#path = path;
    this.#options = options;
    this.#base = world;
    this.#seq = loaded?.seq ?? 0;
    this.#snapshotBytes = loaded?.snapshotBytes ?? 0;
    const jpath = journalPath(path);
    const created = !existsSync(jpath);
    this.#journal = new JournalWriter(jpath, loaded?.journalValidBytes ?? 0);
    if (loaded === null) this.#writeSnapshot(world);
    else {
      chmodSync(path, 0o600);
      if (created) syncDirectory(dirname(jpath));
    }
  }

  /**
   * Journals what changed since the last record, durably. `timeIsTicks`: whatever moved virtual
   * time was the wall clock's ticks (after a tick, or a read: reads never move time), so a change
   * of virtual time alone is not worth a write.
   */
  record(world: World, timeIsTicks = false): void {
    // After close (a request or tick that was under way): the server answers nobody any more.
    if (this.#closed || world === this.#base) return;
    const changes = worldChanges(this.#base, world);
    if (timeIsTicks && changes.length > 0 && changes.every(movesTime)) {
      this.#base = world;
      this.#timeUnsaved = true;
      return;
    }
    if (changes.length > 0) {
      // The world a line leads to is the world at that moment, its virtual time included.
      const withTime = this.#timeUnsaved && !changes.some(movesTime) ? [['set', ['now'], world.now] as const, ...changes] : changes;
      this.#journal.append({ seq: this.#seq + 1, changes: withTime });
      this.#seq++;
      this.#timeUnsaved = false;
    }
    this.#base = world;
    if (this.#compaction === undefined && this.#journal.bytes >= Math.max(limits.stateJournalCompactionBytesMin, this.#snapshotBytes)) {
      // After the answer that is on its way: the snapshot costs the whole world.
      this.#compaction = setImmediate(() => {
        this.#compaction = undefined;
        try {
          this.#writeSnapshot(this.#base);
        } catch {
          // A full disk: the journal still holds every change, and the next write tries again.
        }
      });
    }
  }

  /** Writes a snapshot of `world` (which the journal has reached or passed) and empties the journal. */
  #writeSnapshot(world: World): void {
    const text = JSON.stringify({ format: snapshotFormat, options: this.#options(), world, journalSeq: this.#seq });
    writeStateFile(this.#path, text);
    // A crash here leaves entries the snapshot holds: reading skips them by their seq.
    this.#journal.truncate();
    this.#snapshotBytes = Buffer.byteLength(text);
    this.#base = world;
    this.#timeUnsaved = false;
  }

  /** A last snapshot, with everything (virtual time too), and the files closed. */
  close(world: World): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#compaction !== undefined) clearImmediate(this.#compaction);
    this.#compaction = undefined;
    try {
      this.#writeSnapshot(world);
    } finally {
      this.#journal.close();
    }
  }
}
