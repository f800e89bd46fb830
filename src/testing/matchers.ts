/**
 * vitest matchers over a simulation: `expect.extend(platformSimMatchers)`, then
 * `await expect(sim).toHaveReadyReplicas('default/web', 3)`. Each reads the simulation through
 * `sim.request` as the admin, the way a user's client would, so a matcher sees what the API
 * answers (defaults, status) rather than the store. vitest is not imported here: the matchers are
 * plain functions of the shape `expect.extend` takes (jest-extended style), so the testing entry
 * loads without vitest. Types are opt-in, in the user's own declaration file:
 *
 * ```ts
 * import type { PlatformSimMatchers } from 'platform-sim/testing';
 * declare module 'vitest' {
 *   interface Matchers<T = any> extends PlatformSimMatchers<Promise<void>> {}
 * }
 * ```
 */
import type { Simulation } from '../edges/simulation/simulation.ts';
import { getOwn } from '../core/json.ts';

/** A condition as the matchers compare it; `reason` only when given. */
export interface ExpectedCondition {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason?: string;
}

/** Who a token should authenticate as: a username, or some fields of the UserInfo (groups: a subset). */
export type ExpectedUser = string | { readonly username?: string; readonly uid?: string; readonly groups?: readonly string[]; readonly extra?: Readonly<Record<string, readonly string[]>> };

/** The matchers' call signatures, for the opt-in `declare module 'vitest'` augmentation. */
export interface PlatformSimMatchers<R = Promise<void>> {
  /** StatefulSet `ns/name` (or `name` in `default`) has `status.readyReplicas` equal to `n`. */
  toHaveReadyReplicas(set: string, n: number): R;
  /** CertificateSigningRequest `name` has an `Approved` condition with status True. */
  toBeApproved(csr: string): R;
  toBeDenied(csr: string): R;
  /** CertificateSigningRequest `name` has a `status.certificate`. */
  toBeIssued(csr: string): R;
  /** A TokenReview of `token` authenticates, as `user`. */
  toAuthenticateAs(token: string, user: ExpectedUser, options?: { readonly audiences?: readonly string[] }): R;
  /** The object at `ref` has the condition (see `objectPath` for refs). */
  toHaveCondition(ref: string, condition: ExpectedCondition): R;
  /** GET `ref` answers 200. */
  toExist(ref: string): R;
}

/** The part of vitest's MatcherState the matchers read. */
interface MatcherContext {
  readonly isNot?: boolean;
}

interface MatcherResult {
  readonly pass: boolean;
  readonly message: () => string;
  readonly actual?: unknown;
  readonly expected?: unknown;
}

type Body = Record<string, any>;

function simOf(received: unknown): Simulation {
  const s = received as Partial<Simulation> | null;
  if (s === null || typeof s !== 'object' || typeof s.request !== 'function' || s.resources === undefined) {
    throw new TypeError(`platform-sim matchers: expect(…) must be given a Simulation, got ${received === null ? 'null' : typeof received}`);
  }
  return received as Simulation;
}

/**
 * The API path of an object reference: a path (`/api/v1/namespaces/default/pods/web-0`) as is;
 * `<kind> <namespace>/<name>` or `<kind> <name>` (`pod default/web-0`, `csr alice`); or kubectl's
 * `<kind>/<name>` (namespace `default`). A kind is its resource, singular, Kind or short name.
 */
export function objectPath(sim: Simulation, ref: string): string {
  if (ref.startsWith('/')) return ref;
  const m = /^([A-Za-z.]+)(?:\s+|\/)(?:([^/\s]+)\/)?([^/\s]+)$/.exec(ref.trim());
  const word = m?.[1]?.toLowerCase();
  const rt = word === undefined ? undefined : sim.resources.all.find((r) => r.resource === word || r.singular === word || r.kind.toLowerCase() === word || r.shortNames.includes(word) || `${r.resource}.${r.group}` === word);
  if (m === null || rt === undefined) throw new Error(`platform-sim matchers: cannot read "${ref}" as an object: give an API path or "<kind> [namespace/]name"`);
  const base = rt.group === '' ? `/api/${rt.version}` : `/apis/${rt.group}/${rt.version}`;
  return rt.namespaced ? `${base}/namespaces/${m[2] ?? 'default'}/${rt.resource}/${m[3]!}` : `${base}/${rt.resource}/${m[3]!}`;
}

/** GET an object: the body, or a sentence saying why there is none. */
async function read(sim: Simulation, path: string): Promise<{ ok: true; body: Body } | { ok: false; seen: string }> {
  const res = await sim.request<Body>({ method: 'GET', path });
  if (res.status === 200) return { ok: true, body: res.body };
  const status = res.body as Body | string;
  const why = typeof status === 'object' && status !== null ? `${String(status['reason'] ?? '')}: ${String(status['message'] ?? '')}` : String(status);
  return { ok: false, seen: `GET ${path} answered ${res.status} ${why}` };
}

/**
 * A result whose message reads right both ways: `expected <what>` on failure, `expected <what>
 * not to …` under `.not` (vitest shows the message of the side that failed), always with what
 * was seen.
 */
function result(ctx: MatcherContext, pass: boolean, subject: string, should: string, shouldNot: string, seen: string, extra: { actual?: unknown; expected?: unknown } = {}): MatcherResult {
  return { pass, message: () => `expected ${subject} ${ctx.isNot === true ? shouldNot : should}, but ${seen}`, ...extra };
}

const conditionsOf = (body: Body): Body[] => (Array.isArray(body['status']?.['conditions']) ? (body['status']['conditions'] as Body[]) : []);
const describeConditions = (cs: Body[]): string => (cs.length === 0 ? 'none' : cs.map((c) => `${String(c['type'])}=${String(c['status'])}${c['reason'] === undefined ? '' : ` (${String(c['reason'])})`}`).join(', '));

async function csrCondition(ctx: MatcherContext, received: unknown, name: string, type: 'Approved' | 'Denied'): Promise<MatcherResult> {
  const sim = simOf(received);
  const got = await read(sim, objectPath(sim, `certificatesigningrequests ${name}`));
  const subject = `CertificateSigningRequest ${name}`;
  if (!got.ok) return result(ctx, false, subject, `to be ${type}`, `not to be ${type}`, got.seen);
  const cs = conditionsOf(got.body);
  const pass = cs.some((c) => c['type'] === type && c['status'] === 'True');
  return result(ctx, pass, subject, `to be ${type}`, `not to be ${type}`, `its conditions are ${describeConditions(cs)}`);
}

function userMismatches(user: Body, want: ExpectedUser): string[] {
  const w = typeof want === 'string' ? { username: want } : want;
  const out: string[] = [];
  if (w.username !== undefined && user['username'] !== w.username) out.push(`username ${JSON.stringify(user['username'])} is not ${JSON.stringify(w.username)}`);
  if (w.uid !== undefined && user['uid'] !== w.uid) out.push(`uid ${JSON.stringify(user['uid'])} is not ${JSON.stringify(w.uid)}`);
  const groups: unknown[] = Array.isArray(user['groups']) ? user['groups'] : [];
  for (const g of w.groups ?? []) if (!groups.includes(g)) out.push(`groups ${JSON.stringify(groups)} lack ${JSON.stringify(g)}`);
  for (const [k, v] of Object.entries(w.extra ?? {})) {
    const extra: unknown = user['extra'];
    const have: unknown = typeof extra === 'object' && extra !== null ? getOwn(extra as Record<string, unknown>, k) : undefined;
    if (JSON.stringify(have) !== JSON.stringify(v)) out.push(`extra[${JSON.stringify(k)}] is ${JSON.stringify(have)}, not ${JSON.stringify(v)}`);
  }
  return out;
}

/** The matchers, for `expect.extend(platformSimMatchers)`; each is async (await the expect). */
export const platformSimMatchers = {
  async toHaveReadyReplicas(this: MatcherContext, received: unknown, set: string, n: number): Promise<MatcherResult> {
    const sim = simOf(received);
    const got = await read(sim, objectPath(sim, set.includes(' ') || set.startsWith('/') ? set : `statefulsets ${set}`));
    const subject = `StatefulSet ${set}`;
    if (!got.ok) return result(this, false, subject, `to have ${n} ready replicas`, `not to have ${n} ready replicas`, got.seen);
    const ready = typeof got.body['status']?.['readyReplicas'] === 'number' ? (got.body['status']['readyReplicas'] as number) : 0;
    const replicas = got.body['spec']?.['replicas'] ?? 1;
    return result(this, ready === n, subject, `to have ${n} ready replicas`, `not to have ${n} ready replicas`, `it has ${ready} ready of ${String(replicas)} (status ${JSON.stringify(got.body['status'] ?? {})})`, { actual: ready, expected: n });
  },

  toBeApproved(this: MatcherContext, received: unknown, name: string): Promise<MatcherResult> {
    return csrCondition(this, received, name, 'Approved');
  },

  toBeDenied(this: MatcherContext, received: unknown, name: string): Promise<MatcherResult> {
    return csrCondition(this, received, name, 'Denied');
  },

  async toBeIssued(this: MatcherContext, received: unknown, name: string): Promise<MatcherResult> {
    const sim = simOf(received);
    const got = await read(sim, objectPath(sim, `certificatesigningrequests ${name}`));
    const subject = `CertificateSigningRequest ${name}`;
    if (!got.ok) return result(this, false, subject, 'to be issued', 'not to be issued', got.seen);
    const cert = got.body['status']?.['certificate'];
    const pass = typeof cert === 'string' && cert !== '';
    const seen = pass ? `it carries a certificate (${cert.length} base64 characters), conditions ${describeConditions(conditionsOf(got.body))}` : `it has no status.certificate; conditions ${describeConditions(conditionsOf(got.body))}`;
    return result(this, pass, subject, 'to be issued', 'not to be issued', seen);
  },

  async toAuthenticateAs(this: MatcherContext, received: unknown, token: string, user: ExpectedUser, options: { readonly audiences?: readonly string[] } = {}): Promise<MatcherResult> {
    const sim = simOf(received);
    const group = sim.resources.names.authenticationGroup;
    const res = await sim.request<Body>({
      method: 'POST',
      path: `/apis/${group}/v1/tokenreviews`,
      body: { apiVersion: `${group}/v1`, kind: 'TokenReview', spec: { token, ...(options.audiences === undefined ? {} : { audiences: options.audiences }) } },
    });
    const who = JSON.stringify(user);
    const subject = 'the token';
    if (res.status !== 201 && res.status !== 200) return result(this, false, subject, `to authenticate as ${who}`, `not to authenticate as ${who}`, `the TokenReview answered ${res.status} ${JSON.stringify(res.body)}`);
    const status: Body = res.body['status'] ?? {};
    if (status['authenticated'] !== true) return result(this, false, subject, `to authenticate as ${who}`, `not to authenticate as ${who}`, `it was not authenticated (error: ${JSON.stringify(status['error'] ?? '')})`);
    const misses = userMismatches(status['user'] ?? {}, user);
    const seen = `it authenticated as ${JSON.stringify(status['user'])}${misses.length === 0 ? '' : `: ${misses.join('; ')}`} (audiences ${JSON.stringify(status['audiences'] ?? [])})`;
    return result(this, misses.length === 0, subject, `to authenticate as ${who}`, `not to authenticate as ${who}`, seen, { actual: status['user'], expected: user });
  },

  async toHaveCondition(this: MatcherContext, received: unknown, ref: string, condition: ExpectedCondition): Promise<MatcherResult> {
    const sim = simOf(received);
    const want = `${condition.type}=${condition.status}${condition.reason === undefined ? '' : ` (${condition.reason})`}`;
    const got = await read(sim, objectPath(sim, ref));
    if (!got.ok) return result(this, false, ref, `to have condition ${want}`, `not to have condition ${want}`, got.seen);
    const cs = conditionsOf(got.body);
    const pass = cs.some((c) => c['type'] === condition.type && c['status'] === condition.status && (condition.reason === undefined || c['reason'] === condition.reason));
    return result(this, pass, ref, `to have condition ${want}`, `not to have condition ${want}`, `its conditions are ${describeConditions(cs)}`);
  },

  async toExist(this: MatcherContext, received: unknown, ref: string): Promise<MatcherResult> {
    const sim = simOf(received);
    const path = objectPath(sim, ref);
    const got = await read(sim, path);
    const seen = got.ok ? `GET ${path} answered 200 (uid ${String(got.body['metadata']?.['uid'])})` : got.seen;
    return result(this, got.ok, ref, 'to exist', 'not to exist', seen);
  },
};
