/**
 * The life of a CertificateSigningRequest as a table (certificates.md §5–6, docs/certificates.md):
 * its phases, every move between them with who makes it, through which door (`approval`,
 * `status`, create, delete), which signer permission it needs and what marks it, and the rules of
 * the marks themselves. The approver, the signer and the cleaner choose their work from it; the
 * validation, the admission and the invariant checker enforce it; the diagram of the docs is
 * rendered from it (test/docs/lifecycleDiagrams.test.ts).
 *
 * A phase is a summary of the marks (phaseOf): Denied outranks everything, a certificate makes a
 * request Issued, and a true Failed condition counts once the request is approved (upstream's
 * approver looks only at Approved and Denied, so a Failed mark on an undecided request does not
 * stop its approval). Marks are permanent: a condition is never removed and a certificate never
 * changes.
 */
import type { KubeObject } from '../../../api/meta.ts';
import { assert } from '../../../core/assert.ts';
import { movesBetween, phasesActedOnBy, reachableFrom, type Lifecycle, type Move } from '../../../core/lifecycle.ts';
import { approved, certificateOf, conditionsOf, denied, failed } from './accessors.ts';

export type CsrPhase = 'Gone' | 'Pending' | 'Approved' | 'Denied' | 'Failed' | 'Issued';

/** The doors a move goes through: creation, the two subresources, deletion. */
export type CsrVia = 'create' | 'approval' | 'status' | 'delete';

export type CsrActor = 'user' | 'csr-approver' | 'csr-signer' | 'csr-cleaner';

/** The conditions that mark moves (each is True only and, once there, stays). */
export type CsrMarkCondition = typeof approved | typeof denied | typeof failed;

export type CsrMark =
  | { readonly kind: 'created' }
  | { readonly kind: 'condition'; readonly type: CsrMarkCondition; readonly reason?: string }
  | { readonly kind: 'certificate' }
  | { readonly kind: 'deleted' };

/** A cleaner's clock: from what it runs, for how long, and on which requests only. */
export interface CsrTimer {
  /** Creation, the `lastUpdateTime` of each condition of that type, or the certificate's notAfter. */
  readonly since: 'creation' | CsrMarkCondition | 'certificate expiry';
  readonly afterMs: number;
  readonly onlyIf?: 'no conditions' | 'issued';
}

export interface CsrMove extends Move<CsrPhase> {
  readonly actor: CsrActor;
  readonly via: CsrVia;
  readonly mark: CsrMark;
  /** The `signers` verb the caller needs on the request's signer (admission.ts). */
  readonly verb?: 'approve' | 'sign';
  readonly timer?: CsrTimer;
}

/** What a mark needs beside it: the conditions that must be there and those that may not. */
export interface MarkRule {
  readonly requires: readonly CsrMarkCondition[];
  readonly excludes: readonly CsrMarkCondition[];
}

const hour = 3600_000;

function marksText(mark: CsrMark): string {
  switch (mark.kind) {
    case 'created':
      return 'spec.username, uid, groups, extra from the caller, status emptied';
    case 'condition':
      return `condition ${mark.type}${mark.reason === undefined ? '' : `, reason ${mark.reason}`}`;
    case 'certificate':
      return 'status.certificate';
    case 'deleted':
      return 'the object is gone';
  }
}

const move = (m: Omit<CsrMove, 'marks'>): CsrMove => ({ ...m, marks: marksText(m.mark) });

const present: readonly CsrPhase[] = ['Pending', 'Approved', 'Denied', 'Failed', 'Issued'];

export const csrLifecycle: Lifecycle<CsrPhase, CsrMove> = {
  name: 'csr',
  outside: 'Gone',
  phases: [
    { name: 'Gone', means: 'no object: not created yet, or deleted' },
    { name: 'Pending', means: 'neither Approved nor Denied, no certificate' },
    { name: 'Approved', means: 'an Approved condition, no certificate, no true Failed condition' },
    { name: 'Denied', means: 'a Denied condition (whatever else it carries)' },
    { name: 'Failed', means: 'approved, with a true Failed condition and no certificate' },
    { name: 'Issued', means: 'status.certificate is set (so it is approved and not denied)' },
  ],
  moves: [
    move({ from: ['Gone'], to: 'Pending', actor: 'user', via: 'create', mark: { kind: 'created' }, label: 'create', when: 'any caller that may create, a status in the body is dropped' }),
    move({ from: ['Pending'], to: 'Approved', actor: 'user', via: 'approval', verb: 'approve', mark: { kind: 'condition', type: approved }, label: 'approval adds Approved', when: 'a user with approve on the signer' }),
    move({
      from: ['Pending'],
      to: 'Approved',
      actor: 'csr-approver',
      via: 'approval',
      verb: 'approve',
      mark: { kind: 'condition', type: approved, reason: 'AutoApproved' },
      label: 'approval adds Approved',
      when: 'node-agent client signer, a node client request, its creator may create selfnodeclient or nodeclient',
    }),
    move({ from: ['Pending'], to: 'Denied', actor: 'user', via: 'approval', verb: 'approve', mark: { kind: 'condition', type: denied }, label: 'approval adds Denied', when: 'a user with approve on the signer' }),
    move({ from: ['Approved'], to: 'Issued', actor: 'csr-signer', via: 'status', verb: 'sign', mark: { kind: 'certificate' }, label: 'signer issues', when: 'a built-in signer accepts the request and its CA is valid' }),
    move({
      from: ['Approved'],
      to: 'Failed',
      actor: 'csr-signer',
      via: 'status',
      verb: 'sign',
      mark: { kind: 'condition', type: failed, reason: 'SignerValidationFailure' },
      label: 'signer refuses',
      when: "a built-in signer's checks refuse the request",
    }),
    move({ from: ['Approved'], to: 'Issued', actor: 'user', via: 'status', verb: 'sign', mark: { kind: 'certificate' }, label: 'signer issues', when: 'a signer that is not built in (a user with sign)' }),
    move({ from: ['Approved'], to: 'Failed', actor: 'user', via: 'status', verb: 'sign', mark: { kind: 'condition', type: failed }, label: 'signer refuses', when: 'a signer that is not built in (a user with sign)' }),
    move({ from: ['Pending'], to: 'Gone', actor: 'csr-cleaner', via: 'delete', mark: { kind: 'deleted' }, timer: { since: 'creation', afterMs: 24 * hour, onlyIf: 'no conditions' }, label: 'cleaner 24 h after creation', when: 'more than 24 h after creation, while it has no condition at all' }),
    move({ from: ['Denied'], to: 'Gone', actor: 'csr-cleaner', via: 'delete', mark: { kind: 'deleted' }, timer: { since: denied, afterMs: hour }, label: 'cleaner 1 h after Denied', when: 'more than 1 h after a Denied condition was last updated' }),
    move({ from: ['Failed'], to: 'Gone', actor: 'csr-cleaner', via: 'delete', mark: { kind: 'deleted' }, timer: { since: failed, afterMs: hour }, label: 'cleaner 1 h after Failed', when: 'more than 1 h after a Failed condition was last updated (in any phase)' }),
    move({ from: ['Issued'], to: 'Gone', actor: 'csr-cleaner', via: 'delete', mark: { kind: 'deleted' }, timer: { since: approved, afterMs: hour, onlyIf: 'issued' }, label: 'cleaner 1 h after Approved', when: 'issued, more than 1 h after the Approved condition was last updated' }),
    move({ from: ['Issued'], to: 'Gone', actor: 'csr-cleaner', via: 'delete', mark: { kind: 'deleted' }, timer: { since: 'certificate expiry', afterMs: 0 }, label: 'cleaner when the certificate expires', when: "past the certificate's notAfter" }),
    move({ from: present, to: 'Gone', actor: 'user', via: 'delete', mark: { kind: 'deleted' }, label: 'DELETE', when: 'a user who may delete it, at any time' }),
  ],
};

/** What each mark needs beside it (validation and the checker enforce these). */
export const csrMarkRules: Readonly<Record<CsrMarkCondition | 'certificate', MarkRule>> = {
  [approved]: { requires: [], excludes: [denied] },
  [denied]: { requires: [], excludes: [approved] },
  [failed]: { requires: [], excludes: [] },
  // The spec (001): the certificate stays empty when the request is denied or the signer failed
  // (Kubernetes checks neither; docs/divergences.md).
  certificate: { requires: [approved], excludes: [denied, failed] },
};

/**
 * What stays true of an issued request whatever is added to it later: approved and never denied
 * (Denied cannot join Approved). A Failed condition added after the certificate is not refused:
 * the spec shows no such move and Kubernetes allows it.
 */
export const issuedRule: MarkRule = { requires: [approved], excludes: [denied] };

/** The conditions that mark a move, in table order: Approved, Denied, Failed. */
export const markConditions: readonly CsrMarkCondition[] = [
  ...new Set(csrLifecycle.moves.flatMap((m) => (m.mark.kind === 'condition' ? [m.mark.type] : []))),
];

/** The doors through which a mark is made. */
export function doorsOf(mark: CsrMarkCondition | 'certificate'): ReadonlySet<CsrVia> {
  return new Set(csrLifecycle.moves.filter((m) => (mark === 'certificate' ? m.mark.kind === 'certificate' : m.mark.kind === 'condition' && m.mark.type === mark)).map((m) => m.via));
}

/** The decisions: conditions made through `approval`, which no other door may add or change. */
export const decisionConditions: readonly CsrMarkCondition[] = markConditions.filter((t) => doorsOf(t).has('approval'));

/** Pairs of conditions that may not stand together, each once, in table order: [Approved, Denied]. */
export const exclusivePairs: readonly (readonly [CsrMarkCondition, CsrMarkCondition])[] = markConditions.flatMap((a, i) =>
  markConditions.slice(i + 1).filter((b) => csrMarkRules[a].excludes.includes(b) || csrMarkRules[b].excludes.includes(a)).map((b) => [a, b] as const),
);

/** The signer verb a write through `via` needs (the same for every move through it). */
export function signerVerbFor(via: 'approval' | 'status'): 'approve' | 'sign' {
  const verbs = new Set(csrLifecycle.moves.filter((m) => m.via === via).map((m) => m.verb));
  const [verb] = verbs;
  assert(verbs.size === 1 && verb !== undefined, `csr lifecycle: moves through ${via} disagree on their signer verb`);
  return verb;
}

/** The cleaner's clocks, one per collecting move. */
export const cleanerTimers: readonly CsrTimer[] = csrLifecycle.moves.flatMap((m) => (m.actor === 'csr-cleaner' && m.timer !== undefined ? [m.timer] : []));

/** The phase of a stored request ('Gone' for none). */
export function phaseOf(csr: KubeObject | undefined): CsrPhase {
  if (csr === undefined) return 'Gone';
  const conditions = conditionsOf(csr);
  if (conditions.some((c) => c.type === denied)) return 'Denied';
  if (certificateOf(csr) !== '') return 'Issued';
  if (!conditions.some((c) => c.type === approved)) return 'Pending';
  // Upstream's HasTrueCondition: an empty status counts as True.
  return conditions.some((c) => c.type === failed && (c.status === 'True' || c.status === '' || c.status === undefined)) ? 'Failed' : 'Approved';
}

/** The moves from `from` to `to`, through `via` when given. */
export function allowedMoves(from: CsrPhase, to: CsrPhase, via?: CsrVia): CsrMove[] {
  return movesBetween(csrLifecycle, from, to).filter((m) => via === undefined || m.via === via);
}

/** Whether a request may get from `from` to `to` in one or more moves (or stay). */
export function canReach(from: CsrPhase, to: CsrPhase): boolean {
  return reachableFrom(csrLifecycle, from).has(to);
}

/** Whether `actor` has a move out of the request's current phase. */
export function hasWork(actor: CsrActor, csr: KubeObject): boolean {
  return phasesActedOnBy(csrLifecycle, actor).has(phaseOf(csr));
}

/** Whether conditions of these types break `rule`: a required type missing or an excluded one there. */
export function breaksRule(rule: MarkRule, types: readonly (string | undefined)[]): boolean {
  return rule.requires.some((t) => !types.includes(t)) || rule.excludes.some((t) => types.includes(t));
}
