/**
 * Model-based commands for `fc.asyncModelRun`: what users and kubelets do — create, scale, change
 * the image or the partition of a StatefulSet (or both at once: a canary release), flip a pod's
 * readiness, fail or delete a pod, request a token and review it, bind a token to a pod and review
 * the bound tokens later (boundTokenCommands.ts), create / approve / deny a CSR, let time pass —
 * each against a simulation, each checking
 * the answer against a small model (what must be accepted, what refused, with which code) and,
 * after every command, the invariant checkers on the simulation's world. Plain classes: the caller's
 * fast-check runs them (only `fc.constantFrom`, `constant`, `integer`, `boolean`, `tuple` build them).
 */
import type * as FastCheck from 'fast-check';
import type { Simulation } from '../edges/simulation/simulation.ts';
import type { Fc } from './arbitraries.ts';
import type { Scenario, Step } from '../scenario/format.ts';
import { answered, authGroup, Base, emptyModel, ns, type Body, type SimCommand, type SimModel, type SimReal } from './commandBase.ts';
import { BoundToken, DeletePod, ReviewBoundTokens } from './boundTokenCommands.ts';

export { emptyModel } from './commandBase.ts';
export type { BoundTokenRecord, SimModel, SimReal, SimCommand } from './commandBase.ts';

const sets = '/apis/apps/v1/namespaces/default/statefulsets';
const merge = { 'content-type': 'application/merge-patch+json' };

class CreateSet extends Base {
  constructor(
    readonly name: string,
    readonly replicas: number,
    readonly parallel: boolean,
  ) {
    super();
  }
  check = (m: Readonly<SimModel>): boolean => !m.sets.has(this.name);
  toString = (): string => `create set ${this.name} ×${this.replicas}${this.parallel ? ' Parallel' : ''}`;
  toSteps = (): Step[] => [{ name: this.toString(), create: { apiVersion: 'apps/v1', kind: 'StatefulSet', ...this.body() }, ...this.seen() }];
  body(): { metadata: { name: string }; spec: Body } {
    return {
      metadata: { name: this.name },
      spec: {
        replicas: this.replicas,
        serviceName: this.name,
        podManagementPolicy: this.parallel ? 'Parallel' : 'OrderedReady',
        selector: { matchLabels: { app: this.name } },
        template: { metadata: { labels: { app: this.name }, annotations: { 'sim.platform.io/ready-after': '5s' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
      },
    };
  }
  protected async apply(m: SimModel, sim: Simulation, faults: boolean): Promise<void> {
    if (!answered(this.toString(), this.note(await sim.request({ method: 'POST', path: sets, body: this.body() })), 201, faults)) return;
    m.sets.set(this.name, { replicas: this.replicas, partition: 0, image: 'nginx:1.27' });
  }
}

class Scale extends Base {
  constructor(
    readonly name: string,
    readonly replicas: number,
  ) {
    super();
  }
  check = (m: Readonly<SimModel>): boolean => m.sets.has(this.name);
  toString = (): string => `scale ${this.name} to ${this.replicas}`;
  toSteps = (): Step[] => [{ name: this.toString(), patch: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: this.name, subresource: 'scale', patch: { spec: { replicas: this.replicas } } }, ...this.seen() }];
  protected async apply(m: SimModel, sim: Simulation, faults: boolean): Promise<void> {
    const res = this.note(await sim.request({ method: 'PATCH', path: `${sets}/${this.name}/scale`, headers: merge, body: { spec: { replicas: this.replicas } } }));
    if (!answered(this.toString(), res, 200, faults)) return;
    if ((res.body as Body).spec.replicas !== this.replicas) throw new Error(`${this}: the Scale answered ${JSON.stringify(res.body)}`);
    m.sets.get(this.name)!.replicas = this.replicas;
  }
}

class ChangeSpec extends Base {
  constructor(
    readonly name: string,
    /** A new image, a new partition, or both in one patch (a canary release). */
    readonly change: { image?: string; partition?: number },
  ) {
    super();
  }
  check = (m: Readonly<SimModel>): boolean => m.sets.has(this.name);
  toString = (): string => `${this.name}: ${[this.change.partition === undefined ? '' : `partition ${this.change.partition}`, this.change.image === undefined ? '' : `image ${this.change.image}`].filter((w) => w !== '').join(' and ')}`;
  toSteps = (): Step[] => [{ name: this.toString(), patch: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: this.name, type: 'strategic', patch: { spec: this.spec() } }, ...this.seen() }];
  spec(): Body {
    return {
      ...(this.change.image === undefined ? {} : { template: { spec: { containers: [{ name: 'app', image: this.change.image }] } } }),
      ...(this.change.partition === undefined ? {} : { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: this.change.partition } } }),
    };
  }
  protected async apply(m: SimModel, sim: Simulation, faults: boolean): Promise<void> {
    const res = this.note(await sim.request({ method: 'PATCH', path: `${sets}/${this.name}`, headers: { 'content-type': 'application/strategic-merge-patch+json' }, body: { spec: this.spec() } }));
    if (!answered(this.toString(), res, 200, faults)) return;
    const model = m.sets.get(this.name)!;
    if (this.change.image !== undefined) model.image = this.change.image;
    if (this.change.partition !== undefined) model.partition = this.change.partition;
  }
}

/** A kubelet's moves on one pod: its Ready condition, or its end (phase Failed). A pod that is not there is left alone. */
class PodMove extends Base {
  constructor(
    readonly name: string,
    readonly ordinal: number,
    readonly move: 'ready' | 'unready' | 'fail',
  ) {
    super();
  }
  check = (m: Readonly<SimModel>): boolean => m.sets.has(this.name);
  toString = (): string => `${this.move} pod ${this.name}-${this.ordinal}`;
  // A request step: the pod may not be there, which the command allows.
  toSteps = (): Step[] => [{ name: this.toString(), request: { method: 'PATCH', path: this.path(), headers: { 'content-type': 'application/strategic-merge-patch+json' }, body: { status: this.status() } }, ...this.seen() }];
  path = (): string => `${ns}/pods/${this.name}-${this.ordinal}/status`;
  status = (): Body => (this.move === 'fail' ? { phase: 'Failed' } : { conditions: [{ type: 'Ready', status: this.move === 'ready' ? 'True' : 'False' }] });
  protected async apply(_m: SimModel, sim: Simulation, faults: boolean): Promise<void> {
    const res = this.note(await sim.request({ method: 'PATCH', path: this.path(), headers: { 'content-type': 'application/strategic-merge-patch+json' }, body: { status: this.status() } }));
    if (res.status !== 404) answered(this.toString(), res, 200, faults);
  }
}

class Advance extends Base {
  constructor(readonly seconds: number) {
    super();
  }
  check = (): boolean => true;
  toString = (): string => `advance ${this.seconds}s`;
  toSteps = (): Step[] => [{ advance: `${this.seconds}s` }];
  protected async apply(_m: SimModel, sim: Simulation): Promise<void> {
    await sim.advance(`${this.seconds}s`);
  }
}

class RequestToken extends Base {
  constructor(readonly expirationSeconds: number) {
    super();
  }
  check = (): boolean => true;
  toString = (): string => `token for default/default, ${this.expirationSeconds}s`;
  toSteps = (): Step[] => {
    const request: Step = { name: this.toString(), request: { method: 'POST', path: `${ns}/serviceaccounts/default/token`, body: { spec: { expirationSeconds: this.expirationSeconds } } }, ...this.seen() };
    // The review replays only when the token was issued (not when a fault answered) and reviewed.
    if (this.observed !== 201 || !this.reviewed) return [request];
    return [{ ...request, capture: { token: 'status.token' } }, { expect: { token: '${token}', authenticated: true, user: { username: 'system:serviceaccount:default:default' } } }];
  };
  reviewed = false;
  protected async apply(_m: SimModel, sim: Simulation, faults: boolean): Promise<void> {
    const res = this.note(await sim.request({ method: 'POST', path: `${ns}/serviceaccounts/default/token`, body: { spec: { expirationSeconds: this.expirationSeconds } } }));
    if (!answered(this.toString(), res, 201, faults)) return;
    const review = await sim.request({ method: 'POST', path: `/apis/${authGroup(sim)}/v1/tokenreviews`, body: { spec: { token: (res.body as Body).status.token } } });
    // The review itself may meet a fault (a rule on every create): then there is nothing to check.
    if (!answered(`${this} (its review)`, review, 201, faults)) return;
    this.reviewed = true;
    const user = (review.body as Body).status?.user?.username;
    if (user !== 'system:serviceaccount:default:default') throw new Error(`${this}: the fresh token reviews as ${JSON.stringify((review.body as Body).status)}`);
  }
}

const certGroup = (sim: Simulation): string => `certificates.${sim.resources.names.domain === 'k8s.io' ? 'k8s.io' : 'platform.io'}`;

/** For a CSR: the built-in client signer (the simulation issues once approved) or a custom one (nobody issues). */
type SignerKind = 'builtin' | 'custom';

const signerOf = (sim: Simulation, kind: SignerKind): string => (kind === 'custom' ? 'example.com/signer' : sim.resources.names.domain === 'k8s.io' ? 'kubernetes.io/kube-apiserver-client' : 'platform.io/apiserver-client');

class CreateCsr extends Base {
  constructor(
    readonly name: string,
    readonly request: string,
    readonly signer: SignerKind,
  ) {
    super();
  }
  check = (m: Readonly<SimModel>): boolean => !m.csrs.has(this.name);
  toString = (): string => `create CSR ${this.name} (${this.signer} signer)`;
  toSteps = (): Step[] => [{ name: this.toString(), create: { apiVersion: 'certificates.platform.io/v1', kind: 'CertificateSigningRequest', ...this.body(this.signer === 'custom' ? 'example.com/signer' : 'platform.io/apiserver-client') } }];
  body(signerName: string): { metadata: { name: string }; spec: Body } {
    return { metadata: { name: this.name }, spec: { request: this.request, signerName, usages: ['digital signature', 'client auth'] } };
  }
  protected async apply(m: SimModel, sim: Simulation, faults: boolean): Promise<void> {
    const body = this.body(signerOf(sim, this.signer));
    if (!answered(this.toString(), this.note(await sim.request({ method: 'POST', path: `/apis/${certGroup(sim)}/v1/certificatesigningrequests`, body })), 201, faults)) return;
    m.csrs.set(this.name, 'Pending');
  }
}

/** Approve or deny through /approval: a pending request takes it, a decided one refuses the other decision (422). */
class Decide extends Base {
  constructor(
    readonly name: string,
    readonly decision: 'Approved' | 'Denied',
  ) {
    super();
  }
  check = (m: Readonly<SimModel>): boolean => m.csrs.has(this.name);
  toString = (): string => `${this.decision === 'Approved' ? 'approve' : 'deny'} CSR ${this.name}`;
  toSteps = (): Step[] => {
    const decision = { name: this.name, reason: 'ModelRun', message: 'decided by a model-based test' };
    return [this.decision === 'Approved' ? { name: this.toString(), approve: decision, ...this.seen() } : { name: this.toString(), deny: decision, ...this.seen() }];
  };
  protected async apply(m: SimModel, sim: Simulation, faults: boolean): Promise<void> {
    const path = `/apis/${certGroup(sim)}/v1/certificatesigningrequests/${this.name}`;
    const csr = (await sim.request({ method: 'GET', path })).body as Body;
    const condition = { type: this.decision, status: 'True', reason: 'ModelRun', message: 'decided by a model-based test' };
    const res = await sim.request({ method: 'PUT', path: `${path}/approval`, body: { ...csr, status: { ...csr.status, conditions: [...(csr.status?.conditions ?? []), condition] } } });
    const state = m.csrs.get(this.name)!;
    // Approved and Denied exclude each other, and one condition per type: a decided request refuses any further decision.
    // The answer seen is what a replay of these steps (same seed, same fault draws) sees.
    this.note(res);
    if (!answered(this.toString(), res, state === 'Pending' ? 200 : 422, faults)) return;
    if (state === 'Pending') m.csrs.set(this.name, this.decision);
  }
}

/**
 * The command arbitraries, for `fc.commands(simulationCommands(fc, …))`. `requests` are base64
 * PEM PKCS#10 requests for the CSR commands (from `sim.createCertificateRequest`); without them
 * no CSR commands are drawn.
 */
export function simulationCommands(fc: Fc, options: { readonly requests?: readonly string[] } = {}): FastCheck.Arbitrary<SimCommand>[] {
  const set = fc.constantFrom('web', 'db');
  const ordinal = fc.integer({ min: 0, max: 4 });
  const out: FastCheck.Arbitrary<SimCommand>[] = [
    fc.tuple(set, fc.integer({ min: 0, max: 4 }), fc.boolean()).map(([n, r, p]) => new CreateSet(n, r, p)),
    fc.tuple(set, fc.integer({ min: 0, max: 5 })).map(([n, r]) => new Scale(n, r)),
    fc.tuple(set, fc.constantFrom('nginx:1.27', 'nginx:1.28')).map(([n, image]) => new ChangeSpec(n, { image })),
    fc.tuple(set, fc.integer({ min: 0, max: 4 })).map(([n, partition]) => new ChangeSpec(n, { partition })),
    fc.tuple(set, fc.constantFrom('nginx:1.27', 'nginx:1.28'), fc.integer({ min: 1, max: 4 })).map(([n, image, partition]) => new ChangeSpec(n, { image, partition })),
    fc.tuple(set, ordinal, fc.constantFrom('ready' as const, 'unready' as const, 'fail' as const)).map(([n, o, move]) => new PodMove(n, o, move)),
    fc.constantFrom(1, 5, 30, 120).map((s) => new Advance(s)),
    fc.constantFrom(600, 3600).map((s) => new RequestToken(s)),
    // Tokens are bound to, and pods deleted from, the first pod of a set: it is there whenever the
    // set has replicas, and a short run often enough replaces a pod that has tokens.
    fc.tuple(set, fc.constant(0)).map(([n, o]) => new DeletePod(n, o)),
    fc.tuple(set, fc.constant(0), fc.constantFrom(600, 3600)).map(([n, o, s]) => new BoundToken(n, o, s)),
    fc.constant(null).map(() => new ReviewBoundTokens()),
  ];
  const requests = options.requests ?? [];
  if (requests.length > 0) {
    const csr = fc.constantFrom('alpha', 'beta');
    out.push(
      fc.tuple(csr, fc.constantFrom(...requests), fc.constantFrom('builtin' as const, 'custom' as const)).map(([n, r, signer]) => new CreateCsr(n, r, signer)),
      fc.tuple(csr, fc.constantFrom('Approved' as const, 'Denied' as const)).map(([n, d]) => new Decide(n, d)),
    );
  }
  return out;
}

type Ran = Iterable<SimCommand | { readonly cmd: SimCommand; readonly hasRan?: boolean }>;

/** fast-check's counterexample holds its own wrappers: the commands inside, up to the one that failed. */
const unwrapped = (commands: Ran): SimCommand[] => [...commands].flatMap((c) => ('cmd' in c ? (c.hasRan === false ? [] : [c.cmd]) : [c]));

/**
 * Runs a counterexample's commands once more, in order, on a fresh model and `real` (a fresh
 * simulation made as the failing run's was, its faults installed), and returns what the run ends
 * with: the error, or undefined. Call it before `counterexampleScenario`: fast-check reuses command
 * objects across its shrink attempts, and the last attempt that ran a command may not be the
 * counterexample, while a command's steps replay what it saw when it last ran (which tokens there
 * were to review, the answers it got).
 */
export async function rerunCommands(commands: Ran, real: SimReal): Promise<unknown> {
  const model = emptyModel();
  for (const c of unwrapped(commands)) {
    try {
      await c.run(model, real);
    } catch (e) {
      return e;
    }
  }
  return undefined;
}

/**
 * A counterexample as a ready-to-run scenario: the commands as steps, with the invariant checkers
 * after every step (a broken invariant fails the step that broke it). Names are platform.io's.
 */
export function counterexampleScenario(name: string, commands: Ran, options: { readonly seed?: number; readonly description?: string } = {}): Scenario {
  return {
    name,
    description: options.description ?? 'A counterexample found by a model-based run of platform-sim/testing, as steps.',
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    options: { checkInvariants: true },
    steps: unwrapped(commands).flatMap((c) => c.toSteps()),
  };
}
