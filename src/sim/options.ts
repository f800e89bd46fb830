/**
 * Options of `createSimulation`, with the defaults of CONTRACT.md, turned into the world's fixed
 * configuration. Bad options are the caller's mistake: they throw `PlatformSimError` at once.
 */
import { parseDuration, parseInstant } from '../core/duration.ts';
import type { WorldConfig } from '../store/world.ts';

export class PlatformSimError extends Error {
  override readonly name = 'PlatformSimError';
  constructor(
    readonly code: 'PSIM_OPTION_INVALID' | 'PSIM_SNAPSHOT_INVALID' | 'PSIM_SETTLE_LIVELOCK' | 'PSIM_DURATION_INVALID',
    message: string,
  ) {
    super(message);
  }
}

export interface StaticUser {
  readonly token: string;
  readonly user: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
}

export interface SimulationOptions {
  readonly seed?: number | string;
  readonly startTime?: string;
  readonly groupDomain?: 'platform.io' | 'k8s.io';
  readonly settle?: 'auto' | 'manual';
  readonly nodeAgent?: boolean;
  readonly podReadyAfter?: string;
  readonly compactionInterval?: string;
  readonly users?: readonly StaticUser[];
  readonly anonymousAuth?: boolean;
  /** Run every invariant checker after every change of the world (tests); a violation throws. */
  readonly checkInvariants?: boolean;
}

export interface ResolvedOptions {
  readonly seed: string;
  readonly start: number;
  readonly settle: 'auto' | 'manual';
  readonly config: WorldConfig;
  readonly users: readonly StaticUser[];
  readonly anonymousAuth: boolean;
}

export const defaultStartTime = '2025-01-01T00:00:00Z';

function duration(name: string, text: string): number {
  const ms = parseDuration(text);
  if (ms === null || ms < 0) throw new PlatformSimError('PSIM_OPTION_INVALID', `option ${name}: "${text}" is not a Go duration (e.g. 30s, 5m, 1h30m)`);
  return ms;
}

export function resolveOptions(o: SimulationOptions): ResolvedOptions {
  const start = parseInstant(o.startTime ?? defaultStartTime);
  if (start === null) throw new PlatformSimError('PSIM_OPTION_INVALID', `option startTime: "${o.startTime}" is not an RFC 3339 time`);
  const groupDomain = o.groupDomain ?? 'platform.io';
  if (groupDomain !== 'platform.io' && groupDomain !== 'k8s.io') throw new PlatformSimError('PSIM_OPTION_INVALID', `option groupDomain: must be "platform.io" or "k8s.io"`);
  const compactionIntervalMs = duration('compactionInterval', o.compactionInterval ?? '5m');
  if (compactionIntervalMs === 0) throw new PlatformSimError('PSIM_OPTION_INVALID', 'option compactionInterval: must be positive');
  return {
    seed: String(o.seed ?? 1),
    start,
    settle: o.settle ?? 'auto',
    config: { groupDomain, compactionIntervalMs, nodeAgent: o.nodeAgent ?? true, podReadyAfterMs: duration('podReadyAfter', o.podReadyAfter ?? '0s') },
    users: o.users ?? [],
    anonymousAuth: o.anonymousAuth ?? false,
  };
}
