/**
 * Options of `createSimulation`, with the defaults of CONTRACT.md, turned into the world's fixed
 * configuration. Bad options are the caller's mistake: they throw `PlatformSimError` at once.
 */
import type { Controller } from '../controllers/types.ts';
import { parseDuration, parseInstant } from '../core/duration.ts';
import type { WorldConfig } from '../store/world.ts';
import type { IdentityConfig, ServiceAccountKey, StaticUser } from '../auth/identityConfig.ts';
import { validateFaultRules, type FaultRule } from './faults.ts';

export class PlatformSimError extends Error {
  override readonly name = 'PlatformSimError';
  constructor(
    readonly code: 'PSIM_OPTION_INVALID' | 'PSIM_SNAPSHOT_INVALID' | 'PSIM_SETTLE_LIVELOCK' | 'PSIM_DURATION_INVALID' | 'PSIM_ASYNC_REQUIRED',
    message: string,
  ) {
    super(message);
  }
}

export type { StaticUser };

export interface RequestHeaderOptions {
  /** PEM bundle of the CA whose client certificates may send front-proxy headers. */
  readonly clientCA: string;
  /** Common names allowed to act as the front proxy; empty allows any certificate of the CA. */
  readonly allowedNames?: readonly string[];
  readonly usernameHeaders?: readonly string[];
  readonly uidHeaders?: readonly string[];
  readonly groupHeaders?: readonly string[];
  readonly extraHeaderPrefixes?: readonly string[];
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
  /** Extra PEM CA bundle trusted for client certificates, besides the simulation's own CA. */
  readonly clientCA?: string;
  readonly requestHeader?: RequestHeaderOptions;
  readonly tokenIssuer?: string;
  readonly apiAudiences?: readonly string[];
  /** Longest token a TokenRequest gets (Go duration); longer requests are shortened with a warning. */
  readonly serviceAccountMaxTokenExpiration?: string;
  readonly serviceAccountExtendTokenExpiration?: boolean;
  /** PKCS#8 PEM private keys (RSA or EC) signing service-account tokens; the first signs. */
  readonly signingKeys?: readonly string[];
  readonly featureGates?: Readonly<Record<string, boolean>>;
  /**
   * PEM of the CA the built-in signers use instead of the seeded one (key as PKCS#8). It is also
   * trusted for client certificates.
   */
  readonly clusterSigning?: { readonly certificate: string; readonly privateKey: string };
  /** Longest certificate the signers issue (Go duration). */
  readonly clusterSigningDuration?: string;
  /** Fault rules installed from the start (sim/faults.ts; also `sim.injectFaults`, POST /sim/v1/faults). */
  readonly faults?: readonly FaultRule[];
  /**
   * Run every invariant checker after every change of the world (tests): a violation, or a
   * controller write the API refuses, throws an InvariantError.
   */
  readonly checkInvariants?: boolean;
  /**
   * Your own controllers (reconcilers under test), run after the built-in ones in this order,
   * their intents applied like the built-in controllers'. Functions: not kept in snapshots.
   */
  readonly controllers?: readonly Controller[];
  /**
   * `fixed` (default): controllers run in one fixed order each settle round. `seeded`: the order
   * of each round is drawn from the seed, so that when several controllers have work at the same
   * instant (the StatefulSet controller, the garbage collector, the node agent…) a test can
   * explore their interleavings, and replay any of them with the same seed.
   */
  readonly schedule?: 'fixed' | 'seeded';
}

export interface ResolvedOptions {
  readonly seed: string;
  readonly start: number;
  readonly settle: 'auto' | 'manual';
  readonly config: WorldConfig;
  readonly users: readonly StaticUser[];
  readonly anonymousAuth: boolean;
  readonly faults: readonly FaultRule[];
  /** Longest certificate the built-in signers issue (default one year). */
  readonly clusterSigningDurationSeconds: number;
  /** The identity configuration but for the keys, which the edge imports. */
  readonly identity: Omit<IdentityConfig, 'keys'>;
}

/** The identity configuration once the edge has imported the keys. */
export function identityWithKeys(o: ResolvedOptions, keys: readonly ServiceAccountKey[]): IdentityConfig {
  return { ...o.identity, keys };
}

const knownFeatureGates = ['ServiceAccountTokenNodeBinding'];

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
  const signingDuration = o.clusterSigningDuration === undefined ? 365 * 24 * 3600 * 1000 : duration('clusterSigningDuration', o.clusterSigningDuration);
  if (o.faults !== undefined) {
    const checked = validateFaultRules(o.faults);
    if (!checked.ok) throw new PlatformSimError('PSIM_OPTION_INVALID', `option ${checked.message}`);
  }
  const issuer = o.tokenIssuer ?? 'https://platform-sim.local';
  const maxExpiry = o.serviceAccountMaxTokenExpiration === undefined ? null : duration('serviceAccountMaxTokenExpiration', o.serviceAccountMaxTokenExpiration);
  for (const gate of Object.keys(o.featureGates ?? {})) {
    if (!knownFeatureGates.includes(gate)) throw new PlatformSimError('PSIM_OPTION_INVALID', `option featureGates: unrecognized feature gate: ${gate} (known: ${knownFeatureGates.join(', ')})`);
  }
  if (o.schedule !== undefined && o.schedule !== 'fixed' && o.schedule !== 'seeded') throw new PlatformSimError('PSIM_OPTION_INVALID', 'option schedule: must be "fixed" or "seeded"');
  const rh = o.requestHeader;
  const identity: Omit<IdentityConfig, 'keys'> = {
    issuer,
    apiAudiences: o.apiAudiences !== undefined && o.apiAudiences.length > 0 ? [...o.apiAudiences] : [issuer],
    maxTokenExpirationSeconds: maxExpiry === null ? null : Math.floor(maxExpiry / 1000),
    extendTokenExpiration: o.serviceAccountExtendTokenExpiration ?? true,
    nodeBinding: o.featureGates?.['ServiceAccountTokenNodeBinding'] === true,
    staticUsers: o.users ?? [],
    anonymous: o.anonymousAuth ?? false,
    requestHeader:
      rh === undefined
        ? null
        : {
            allowedNames: rh.allowedNames ?? [],
            usernameHeaders: rh.usernameHeaders ?? ['X-Remote-User'],
            uidHeaders: rh.uidHeaders ?? [],
            groupHeaders: rh.groupHeaders ?? ['X-Remote-Group'],
            extraHeaderPrefixes: rh.extraHeaderPrefixes ?? ['X-Remote-Extra-'],
          },
  };
  return {
    clusterSigningDurationSeconds: Math.floor(signingDuration / 1000),
    faults: o.faults ?? [],
    identity,
    seed: String(o.seed ?? 1),
    start,
    settle: o.settle ?? 'auto',
    config: {
      groupDomain,
      compactionIntervalMs,
      nodeAgent: o.nodeAgent ?? true,
      podReadyAfterMs: duration('podReadyAfter', o.podReadyAfter ?? '0s'),
      ...(o.schedule === 'seeded' ? { schedule: 'seeded' as const } : {}),
    },
    users: o.users ?? [],
    anonymousAuth: o.anonymousAuth ?? false,
  };
}
