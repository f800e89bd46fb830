/**
 * Token traffic bound to pods, for the model-based commands: a token bound to a StatefulSet's pod
 * (a TokenRequest with a boundObjectRef, reviewed at once), the deletion of a pod (its tokens
 * reviewed at once), and a review of every bound token later; each review is held against what
 * the API server must answer by then (reference/identity.md §7.1): valid while
 * its pod is the one it was bound to; `…has been invalidated` once the pod is gone; `pod UID (<new>)
 * does not match service account pod ref claim (<old>)` once a pod of the same name replaced it
 * (deleted or failed, its StatefulSet made it again); `…has expired` past exp + 60 s. The model
 * reads the pods through the API as any client would. This is what catches a TokenReview that
 * ignores the bound pod's uid (test/fixtures/brokenTokenReview.ts).
 */
import type { Simulation } from '../edges/simulation/simulation.ts';
import { parseInstant } from '../core/duration.ts';
import type { ObjectRef, Step } from '../scenario/format.ts';
import { answered, authGroup, Base, ns, type Body, type BoundTokenRecord, type SimModel } from './commandBase.ts';

/** The clock skew the validator allows around `exp` and a deletion. */
const leewayMs = 60_000;
const saUser = 'system:serviceaccount:default:default';
const tokenPath = `${ns}/serviceaccounts/default/token`;
const podRef = (name: string): ObjectRef => ({ apiVersion: 'v1', kind: 'Pod', name });

/**
 * A step capturing a pod's uid as `as`. (Cast: in format.ts's Step, StepCommon's answer-capture
 * of strings intersects the capture step's `{ object, path }` entries, which no value satisfies.)
 */
const captureUid = (name: string, as: string, pod: string): Step => ({ name, capture: { [as]: { object: podRef(pod), path: 'metadata.uid' } } });

/** A pod as a client reads it. */
interface PodNow {
  readonly uid: string;
  readonly deletedAtMs: number | null;
}

/** The pod `name`: null when it is not there, `faulted` when an injected fault answered the read. */
async function readPod(sim: Simulation, name: string, what: string, faults: boolean): Promise<PodNow | null | 'faulted'> {
  const res = await sim.request({ method: 'GET', path: `${ns}/pods/${name}` });
  if (res.status === 404) return null;
  if (!answered(what, res, 200, faults)) return 'faulted';
  const meta = (res.body as Body).metadata;
  return { uid: meta.uid, deletedAtMs: typeof meta.deletionTimestamp === 'string' ? parseInstant(meta.deletionTimestamp) : null };
}

/** What a review of `t` must say now: nothing wrong (null), or the reason it is refused, and whether a new pod took the name. */
function verdict(t: BoundTokenRecord, pod: PodNow | null, nowMs: number): { readonly reason: string; readonly replaced: boolean } | null {
  if (nowMs - leewayMs > t.expiresMs) return { reason: 'service account token has expired', replaced: false };
  if (pod === null) return { reason: 'service account token has been invalidated', replaced: false };
  if (pod.uid !== t.podUid) return { reason: `pod UID (${pod.uid}) does not match service account pod ref claim (${t.podUid})`, replaced: true };
  if (pod.deletedAtMs !== null && pod.deletedAtMs < nowMs - leewayMs) return { reason: 'service account token has been invalidated', replaced: false };
  return null;
}

const review = (sim: Simulation, token: string): ReturnType<Simulation['request']> => sim.request({ method: 'POST', path: `/apis/${authGroup(sim)}/v1/tokenreviews`, body: { spec: { token } } });

/** A token of default/default bound to one pod of a set; a pod that is not there refuses it (404). */
export class BoundToken extends Base {
  constructor(
    readonly set: string,
    readonly ordinal: number,
    readonly expirationSeconds: number,
  ) {
    super();
  }
  /** The token as the model remembers it, once issued in the last run. */
  private issued: BoundTokenRecord | undefined;
  private reviewed = false;
  get pod(): string {
    return `${this.set}-${this.ordinal}`;
  }
  check = (m: Readonly<SimModel>): boolean => m.sets.has(this.set);
  toString = (): string => `token bound to pod ${this.pod}, ${this.expirationSeconds}s`;
  body = (): Body => ({ spec: { expirationSeconds: this.expirationSeconds, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: this.pod } } });
  toSteps = (): Step[] => {
    const request: Step = { name: this.toString(), request: { method: 'POST', path: tokenPath, body: this.body() }, ...this.seen() };
    const t = this.issued;
    if (t === undefined) return [request];
    return [
      { ...request, capture: { [t.name]: 'status.token' } },
      captureUid(`the uid of pod ${t.pod}`, `${t.name}.pod`, t.pod),
      ...(this.reviewed ? [{ name: `review ${t.name}`, expect: { token: `\${${t.name}}`, authenticated: true, user: { username: saUser } } }] : []),
    ];
  };
  protected async apply(m: SimModel, sim: Simulation, faults: boolean): Promise<void> {
    this.issued = undefined;
    this.reviewed = false;
    const pod = await readPod(sim, this.pod, `${this} (reading the pod)`, faults);
    if (pod === 'faulted') return;
    const res = this.note(await sim.request({ method: 'POST', path: tokenPath, body: this.body() }));
    if (!answered(this.toString(), res, pod === null ? 404 : 201, faults) || pod === null) return;
    const status = (res.body as Body).status;
    const t: BoundTokenRecord = { name: `token${m.tokens.length + 1}`, token: status.token, pod: this.pod, podUid: pod.uid, expiresMs: parseInstant(status.expirationTimestamp) ?? 0 };
    m.tokens.push(t);
    this.issued = t;
    const r = await review(sim, t.token);
    // The review itself may meet a fault (a rule on every create): then there is nothing to check.
    if (!answered(`${this} (its review)`, r, 201, faults)) return;
    this.reviewed = true;
    const user = (r.body as Body).status?.user;
    const podUid = user?.extra?.[`authentication.${sim.resources.names.wellKnown}/pod-uid`];
    if (user?.username !== saUser || podUid?.[0] !== pod.uid) throw new Error(`${this}: the fresh token reviews as ${JSON.stringify((r.body as Body).status)}`);
  }
}

/**
 * Reviews of bound tokens, each held against what its pod's fate says it must be, remembered with
 * their verdicts so that the steps replay them (the failing one included).
 */
class Reviews {
  private checked: { readonly t: BoundTokenRecord; readonly verdict: ReturnType<typeof verdict> }[] = [];

  async run(tokens: readonly BoundTokenRecord[], sim: Simulation, faults: boolean, what: string): Promise<void> {
    this.checked = [];
    for (const t of tokens) {
      const pod = await readPod(sim, t.pod, `${what} (reading pod ${t.pod})`, faults);
      if (pod === 'faulted') continue;
      const v = verdict(t, pod, sim.world.now);
      const res = await review(sim, t.token);
      if (!answered(`${what} (reviewing ${t.name})`, res, 201, faults)) continue;
      this.checked.push({ t, verdict: v });
      const status = ((res.body as Body).status ?? {}) as Body;
      const want = v === null ? `authenticated as ${saUser}` : `refused with "[invalid bearer token, ${v.reason}]"`;
      const got = status['authenticated'] === true ? `authenticated as ${status['user']?.username}` : `refused with "${status['error']}"`;
      if (got !== want) {
        const fate = pod === null ? 'now gone' : pod.uid === t.podUid ? 'still there' : `now uid ${pod.uid}`;
        throw new Error(`${what}: ${t.name} (bound to pod ${t.pod}, uid ${t.podUid}, ${fate}) must be ${want}, but the review says ${got}`);
      }
    }
  }

  steps(): Step[] {
    return this.checked.flatMap(({ t, verdict: v }): Step[] => {
      const token = `\${${t.name}}`;
      const name = `review ${t.name} (bound to pod ${t.pod})`;
      if (v === null) return [{ name, expect: { token, authenticated: true, user: { username: saUser } } }];
      if (!v.replaced) return [{ name, expect: { token, authenticated: false, error: `[invalid bearer token, ${v.reason}]` } }];
      // The new pod's uid is the scenario run's own: captured, as the old one was.
      const now = `${t.name}.podNow`;
      return [
        captureUid(`the uid of pod ${t.pod} now`, now, t.pod),
        { name, expect: { token, authenticated: false, error: `[invalid bearer token, pod UID (\${${now}}) does not match service account pod ref claim (\${${t.name}.pod})]` } },
      ];
    });
  }
}

/**
 * A user deletes one pod of a set (`kubectl delete pod`, an eviction) — its StatefulSet makes it
 * again, with a new uid — and the tokens bound to it are reviewed at once: none may still work.
 * A pod that is not there is left alone.
 */
export class DeletePod extends Base {
  constructor(
    readonly set: string,
    readonly ordinal: number,
  ) {
    super();
  }
  private readonly reviews = new Reviews();
  get pod(): string {
    return `${this.set}-${this.ordinal}`;
  }
  check = (m: Readonly<SimModel>): boolean => m.sets.has(this.set);
  toString = (): string => `delete pod ${this.pod}`;
  // A request step: the pod may not be there, which the command allows.
  toSteps = (): Step[] => [{ name: this.toString(), request: { method: 'DELETE', path: `${ns}/pods/${this.pod}` }, ...this.seen() }, ...this.reviews.steps()];
  protected async apply(m: SimModel, sim: Simulation, faults: boolean): Promise<void> {
    const res = this.note(await sim.request({ method: 'DELETE', path: `${ns}/pods/${this.pod}` }));
    const deleted = res.status !== 404 && answered(this.toString(), res, 200, faults);
    await this.reviews.run(
      m.tokens.filter((t) => deleted && t.pod === this.pod),
      sim,
      faults,
      this.toString(),
    );
  }
}

/** A review of every bound token so far (time passed, pods failed and were made again, sets scaled down). */
export class ReviewBoundTokens extends Base {
  private readonly reviews = new Reviews();
  check = (m: Readonly<SimModel>): boolean => m.tokens.length > 0;
  toString = (): string => 'review bound tokens';
  toSteps = (): Step[] => this.reviews.steps();
  protected async apply(m: SimModel, sim: Simulation, faults: boolean): Promise<void> {
    await this.reviews.run(m.tokens, sim, faults, this.toString());
  }
}
