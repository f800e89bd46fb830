/**
 * Options of `createSimulation`, with the defaults of CONTRACT.md, turned into the world's fixed
 * configuration. Bad options are the caller's mistake: they throw `PlatformSimError` at once.
 */
import type { Controller } from '../controllers/types.ts';
import { parseDuration, parseInstant } from '../core/duration.ts';
import { limits } from '../core/limits.ts';
import type { WorldConfig } from '../store/world.ts';
import type { IdentityConfig, ServiceAccountKey, StaticUser } from '../auth/identityConfig.ts';
import type { ServiceAccountTokenValidator } from '../auth/tokenValidator.ts';
import { validateFaultRules, type FaultRule } from './faults.ts';
import { getOwn } from '../core/json.ts';

export class PlatformSimError extends Error {
  override readonly name = 'PlatformSimError';
  constructor(
    readonly code: 'PSIM_OPTION_INVALID' | 'PSIM_SNAPSHOT_INVALID' | 'PSIM_SETTLE_LIVELOCK' | 'PSIM_DURATION_INVALID' | 'PSIM_ASYNC_REQUIRED' | 'PSIM_LISTEN_FAILED' | 'PSIM_STATE_FILE_LOCKED',
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
   * their intents applied like the built-in controllers'. One named like a built-in controller
   * (`statefulset-controller`, `csr-signer`, …) takes that one's place: a variant under test.
   * Functions: not kept in snapshots.
   */
  readonly controllers?: readonly Controller[];
  /**
   * `fixed` (default): controllers run in one fixed order each settle round. `seeded`: the order
   * of each round is drawn from the seed, so that when several controllers have work at the same
   * instant (the StatefulSet controller, the garbage collector, the node agent…) a test can
   * explore their interleavings, and replay any of them with the same seed.
   */
  readonly schedule?: 'fixed' | 'seeded';
  /**
   * A variant of the check that authenticates service-account tokens once their signature and
   * audiences passed (times, ServiceAccount, bound Secret/Pod/Node: the API server's validator,
   * src/auth/tokenValidator.ts), for requests and TokenReviews alike: a deliberately broken
   * validator proves that a test catches its bug, as a broken controller in `controllers` does.
   * `(claims, world, builtIn) => reason | null`: refuse with a reason, or accept with null;
   * `builtIn(claims, world)` is the simulation's own. Pure and synchronous. Absent (default): the
   * built-in. A function: not kept in snapshots.
   */
  readonly serviceAccountTokenValidator?: ServiceAccountTokenValidator;
  /**
   * A secret mixed into the seed of every key, certificate and serial (the service-account signing
   * key, the CA, issued certificates) and never into the world (uids, names, random streams), so
   * that credentials cannot be computed from a public seed while worlds stay comparable: `serve`
   * draws one unless asked for seed-only keys. Kept in snapshots. Absent (default): seed-only keys.
   */
  readonly keySecret?: string;
}

export interface ResolvedOptions {
  /** Seed of keys, certificates and serials: the `seed` option with `keySecret` mixed in when one is given. */
  readonly seed: string;
  /** Seed of the world: uids, generated names, the random streams (the `seed` option alone). */
  readonly worldSeed: string;
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

/**
 * A check of one option's value: null when it is fine, else what is wrong: `must be …`, or a path
 * into the value first (`.clientCA: …`, `[2].token: …`).
 */
export type OptionCheck = (value: unknown) => string | null;

/** `name` and a problem found in its value, as one message. */
const at = (name: string, problem: string): string => `${name}${problem.startsWith('.') || problem.startsWith('[') ? '' : ': '}${problem}`;

const show = (v: unknown): string => (typeof v === 'string' ? `"${v}"` : typeof v === 'function' ? 'a function' : (JSON.stringify(v) ?? String(v)));
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const aString: OptionCheck = (v) => (typeof v === 'string' ? null : `must be a string, not ${show(v)}`);
const aBoolean: OptionCheck = (v) => (typeof v === 'boolean' ? null : `must be true or false, not ${show(v)}`);
const strings: OptionCheck = (v) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? null : `must be a list of strings, not ${show(v)}`);
const oneOf =
  (...values: readonly string[]): OptionCheck =>
  (v) =>
    values.includes(v as string) ? null : `must be ${values.map((x) => `"${x}"`).join(' or ')}, not ${show(v)}`;
/** An object with these fields (absent or undefined fields are not checked; unknown fields are refused). */
const fields =
  (checks: Readonly<Record<string, OptionCheck>>, required: readonly string[] = []): OptionCheck =>
  (v) => {
    if (!isRecord(v)) return `must be an object, not ${show(v)}`;
    for (const k of required) if (getOwn(v, k) === undefined) return `.${k}: is required`;
    for (const [k, x] of Object.entries(v)) {
      const check = getOwn(checks, k);
      if (check === undefined) return `.${k}: unknown field (known: ${Object.keys(checks).join(', ')})`;
      const problem = x === undefined ? null : check(x);
      if (problem !== null) return at(`.${k}`, problem);
    }
    return null;
  };
const listOf =
  (check: OptionCheck): OptionCheck =>
  (v) => {
    if (!Array.isArray(v)) return `must be a list, not ${show(v)}`;
    for (const [i, x] of v.entries()) {
      const problem = check(x);
      if (problem !== null) return at(`[${i}]`, problem);
    }
    return null;
  };
const aController: OptionCheck = (v) => {
  if (!isRecord(v) || typeof v['name'] !== 'string') return `must be a controller object with a name, not ${show(v)}`;
  for (const f of ['actor', 'reconcile', 'nextWakeup']) if (typeof v[f] !== 'function') return `.${f}: must be a function (controller ${v['name']})`;
  return null;
};

/** Every option of `createSimulation` and the check of its value (deeper rules are in resolveOptions). */
export const optionChecks: { readonly [K in keyof Required<SimulationOptions>]: OptionCheck } = {
  seed: (v) => ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'string' ? null : `must be a number or a string, not ${show(v)}`),
  startTime: aString,
  groupDomain: oneOf('platform.io', 'k8s.io'),
  settle: oneOf('auto', 'manual'),
  nodeAgent: aBoolean,
  podReadyAfter: aString,
  compactionInterval: aString,
  users: listOf(fields({ token: aString, user: aString, uid: aString, groups: strings }, ['token', 'user'])),
  anonymousAuth: aBoolean,
  clientCA: aString,
  requestHeader: fields(
    { clientCA: aString, allowedNames: strings, usernameHeaders: strings, uidHeaders: strings, groupHeaders: strings, extraHeaderPrefixes: strings },
    ['clientCA'],
  ),
  tokenIssuer: aString,
  apiAudiences: strings,
  serviceAccountMaxTokenExpiration: aString,
  serviceAccountExtendTokenExpiration: aBoolean,
  signingKeys: strings,
  featureGates: (v) => (isRecord(v) && Object.values(v).every((x) => typeof x === 'boolean') ? null : `must be an object of Name: true|false, not ${show(v)}`),
  clusterSigning: fields({ certificate: aString, privateKey: aString }, ['certificate', 'privateKey']),
  clusterSigningDuration: aString,
  faults: (v) => (Array.isArray(v) ? null : `must be a list of fault rules, not ${show(v)}`),
  checkInvariants: aBoolean,
  controllers: listOf(aController),
  schedule: oneOf('fixed', 'seeded'),
  serviceAccountTokenValidator: (v) => (typeof v === 'function' ? null : `must be a function (claims, world, builtIn) => reason | null, not ${show(v)}`),
  keySecret: (v) => (typeof v === 'string' && v !== '' ? null : `must be a non-empty string, not ${show(v)}`),
};

/**
 * Refuses what is not an option or not a value it takes, naming it: throws PSIM_OPTION_INVALID.
 * `checks` defaults to the options of `createSimulation` (the server adds its own).
 */
export function checkOptions(o: unknown, checks: Readonly<Record<string, OptionCheck>> = optionChecks): void {
  if (o === undefined) return;
  if (!isRecord(o)) throw new PlatformSimError('PSIM_OPTION_INVALID', `options: must be an object, not ${show(o)}`);
  for (const [key, value] of Object.entries(o)) {
    const check = Object.hasOwn(checks, key) ? checks[key] : undefined;
    if (check === undefined) throw new PlatformSimError('PSIM_OPTION_INVALID', `option ${key}: unknown option (known: ${Object.keys(checks).join(', ')})`);
    const problem = value === undefined ? null : check(value);
    if (problem !== null) throw new PlatformSimError('PSIM_OPTION_INVALID', `option ${at(key, problem)}`);
  }
}

function duration(name: string, text: string): number {
  const ms = parseDuration(text);
  if (ms === null || ms < 0) throw new PlatformSimError('PSIM_OPTION_INVALID', `option ${name}: "${text}" is not a Go duration (e.g. 30s, 5m, 1h30m)`);
  return ms;
}

export function resolveOptions(o: SimulationOptions): ResolvedOptions {
  checkOptions(o);
  const start = parseInstant(o.startTime ?? defaultStartTime);
  if (start === null) throw new PlatformSimError('PSIM_OPTION_INVALID', `option startTime: "${o.startTime}" is not an RFC 3339 time`);
  // An offset can carry a four-digit local time outside the years RFC 3339 writes in UTC.
  if (start < limits.instantMin || start > limits.instantMax) {
    throw new PlatformSimError('PSIM_OPTION_INVALID', `option startTime: "${o.startTime}" is outside virtual time's range (0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z in UTC)`);
  }
  const groupDomain = o.groupDomain ?? 'platform.io';
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
    ...(o.serviceAccountTokenValidator === undefined ? {} : { serviceAccountTokenValidator: o.serviceAccountTokenValidator }),
  };
  return {
    clusterSigningDurationSeconds: Math.floor(signingDuration / 1000),
    faults: o.faults ?? [],
    identity,
    seed: o.keySecret === undefined ? String(o.seed ?? 1) : `${String(o.seed ?? 1)}\u0000${o.keySecret}`,
    worldSeed: String(o.seed ?? 1),
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
