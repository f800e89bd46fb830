/**
 * `--state-file`: the world persisted atomically (write a temporary file, then rename) after
 * every change, and read back at start so a restarted server resumes where it stopped.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Snapshot } from '../../edges/simulation/simulation.ts';

export function readStateFile(path: string): Snapshot | null {
  if (!existsSync(path)) return null;
  return JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
}

export function writeStateFile(path: string, snapshot: Snapshot): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, JSON.stringify(snapshot));
  renameSync(tmp, path);
}
