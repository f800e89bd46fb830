/**
 * The snapshot part of `--state-file`: a snapshot (`platform-sim/snapshot@1`, what GET
 * /sim/v1/snapshot answers) plus `journalSeq`, the last journal entry it includes. Written
 * atomically — a temporary file, fsync, rename over the old one, fsync of the directory — so a
 * crash leaves either the old snapshot or the new one; mode 0600, as it holds the admin token, the
 * key secret and Secret data. Reading validates before anything is written: a file that is not a
 * snapshot is refused and left as it is.
 */
import { closeSync, existsSync, fchmodSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { readSavedWorldChecked } from '../../store/upgrade.ts';
import { servedWorldProblem } from '../../store/servedWorld.ts';
import { optionChecks, PlatformSimError, type SimulationOptions } from '../../sim/options.ts';
import type { World } from '../../store/world.ts';

export const snapshotFormat = 'platform-sim/snapshot@1';

export interface SavedSnapshot {
  readonly options: SimulationOptions;
  readonly world: World;
  /** The last journal entry the world includes (0: none; files written before the journal have none). */
  readonly journalSeq: number;
  readonly bytes: number;
}

const invalid = (path: string, why: string): PlatformSimError =>
  new PlatformSimError('PSIM_SNAPSHOT_INVALID', `--state-file ${path}: ${why}; it was left as it is (move it away to start afresh)`);

/** The snapshot at `path`, validated; null when there is no file. */
export function readStateFile(path: string): SavedSnapshot | null {
  if (!existsSync(path)) return null;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw invalid(path, `cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid(path, 'not JSON, so not a platform-sim state file');
  }
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (v['format'] !== snapshotFormat) throw invalid(path, `not a platform-sim state file (format ${snapshotFormat})`);
  const options = v['options'] ?? {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw invalid(path, 'its options are not an object');
  // The options a resumed server takes over (serve's credentials and clock start).
  for (const key of ['seed', 'startTime', 'keySecret'] as const) {
    const value = (options as Record<string, unknown>)[key];
    const problem = value === undefined ? null : optionChecks[key](value);
    if (problem !== null) throw invalid(path, `option ${key} ${problem}`);
  }
  const seq = v['journalSeq'] ?? 0;
  if (!Number.isInteger(seq) || (seq as number) < 0) throw invalid(path, `journalSeq ${JSON.stringify(seq)} is not a count`);
  const read = readSavedWorldChecked(v['world']);
  const problem = read.ok ? servedWorldProblem(read.world, false) : read.problem;
  if (!read.ok || problem !== null) throw invalid(path, `its world is not a valid platform-sim world: ${problem}`);
  return { options: options as SimulationOptions, world: read.world, journalSeq: seq as number, bytes: Buffer.byteLength(text) };
}

/** Makes a rename or a new file in `dir` durable. */
export function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes `text` to `path` atomically and durably, mode 0600. */
export function writeStateFile(path: string, text: string): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    // A temporary file left by a crash keeps its mode through 'w': tighten it.
    fchmodSync(fd, 0o600);
    const bytes = Buffer.from(text);
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  syncDirectory(dirname(path));
}
