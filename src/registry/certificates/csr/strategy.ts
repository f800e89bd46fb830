/**
 * The three CSR write strategies (strategy.go): create records the requesting user and empties
 * status; the main resource keeps the stored status; `/status` keeps the stored Approved and
 * Denied conditions when their count is unchanged and takes the certificate from the request;
 * `/approval` takes only the conditions. Both subresources stamp condition times.
 *
 * Unlike Kubernetes, which drops a spec change on all three paths, every path rejects one
 * (`field is immutable`, see validation.ts; CONTRACT "API machinery, precisely"). So the
 * subresources confine a write to status and metadata as every status write does, but let the
 * body's spec through to validation (confineToStatusAndSpec).
 */
import type { KubeObject } from '../../../api/meta.ts';
import { formatInstant, parseInstant, type Instant } from '../../../core/duration.ts';
import { deepEqual, type JsonObject } from '../../../core/json.ts';
import { keepStatus, strategy } from '../../common/defaultStrategy.ts';
import type { Strategy, StrategyContext } from '../../types.ts';
import { conditionsOf, specOf, statusOf, tidyStatus, type Condition } from './accessors.ts';
import { decisionConditions } from './lifecycle.ts';
import { validateCsrCreate, validateCsrUpdate } from './validation.ts';

// Condition timestamps on `/status` and `/approval` writes (strategy.go
// populateConditionTimestamps): an unset lastUpdateTime becomes now; an unset
// lastTransitionTime reuses the stored one of a condition with the same type and status, else
// now. Timestamps the client sent are kept.

const goZeroTime = parseInstant('0001-01-01T00:00:00Z');

/** metav1.Time.IsZero: absent, empty, or Go's zero instant. */
function isZero(t: string | undefined): boolean {
  return t === undefined || t === '' || parseInstant(t) === goZeroTime;
}

function withTimestamps(conditions: readonly Condition[], stored: readonly Condition[], now: Instant): Condition[] {
  const stamp = formatInstant(now);
  return conditions.map((c) => {
    const lastUpdateTime = isZero(c.lastUpdateTime) ? stamp : c.lastUpdateTime!;
    let lastTransitionTime = c.lastTransitionTime;
    if (isZero(lastTransitionTime)) {
      const same = stored.find((o) => o.type === c.type && o.status === c.status && !isZero(o.lastTransitionTime));
      lastTransitionTime = same?.lastTransitionTime ?? stamp;
    }
    return { ...c, lastUpdateTime, lastTransitionTime: lastTransitionTime! };
  });
}

function prepareForCreate(obj: KubeObject, ctx: StrategyContext): KubeObject {
  const { username: _u, uid: _i, groups: _g, extra: _e, ...spec } = specOf(obj);
  const user = ctx.user;
  const recorded: JsonObject = { ...spec };
  // Go omits empty strings and lists of the user info (omitempty).
  if (user.username !== '') recorded['username'] = user.username;
  if (user.uid !== undefined && user.uid !== '') recorded['uid'] = user.uid;
  if (user.groups.length > 0) recorded['groups'] = [...user.groups];
  const extraKeys = Object.keys(user.extra ?? {}).sort();
  if (extraKeys.length > 0) recorded['extra'] = Object.fromEntries(extraKeys.map((k) => [k, [...(user.extra![k] ?? [])]]));
  return { ...obj, spec: recorded, status: {} };
}

/**
 * What a write through `/approval` or `/status` may change: status and metadata but the owner
 * references and the deletion timestamp (as every status write); the spec of the body is kept
 * too, so that validation refuses a change instead of the write dropping it.
 */
export function confineToStatusAndSpec(obj: KubeObject, old: KubeObject): KubeObject {
  const { ownerReferences: _o, deletionTimestamp: _d, ...rest } = obj.metadata;
  const { ownerReferences, deletionTimestamp } = old.metadata;
  const metadata = { ...rest, ...(ownerReferences === undefined ? {} : { ownerReferences }), ...(deletionTimestamp === undefined ? {} : { deletionTimestamp }) };
  const out: KubeObject = { ...old, metadata };
  for (const part of ['spec', 'status'] as const) {
    if (obj[part] === undefined) delete out[part];
    else out[part] = obj[part];
  }
  return out;
}

/** An unchanged spec is stored as it was (key order included); a changed one goes on to be refused. */
const withStoredSpec = (obj: KubeObject, old: KubeObject): KubeObject => (deepEqual(obj['spec'], old['spec']) ? { ...obj, spec: old['spec'] } : obj);

/** strategy.go preserveConditionInstances: same count ⇒ the stored instances win, in place. */
function preserveInstances(next: Condition[], stored: readonly Condition[], type: string): Condition[] {
  const oldOnes = stored.filter((c) => c.type === type);
  const newIndices = next.flatMap((c, i) => (c.type === type ? [i] : []));
  if (oldOnes.length !== newIndices.length) return next;
  const out = [...next];
  newIndices.forEach((at, k) => (out[at] = oldOnes[k]!));
  return out;
}

function withConditions(obj: KubeObject, status: JsonObject, conditions: readonly Condition[]): KubeObject {
  return { ...obj, status: tidyStatus({ ...status, conditions: conditions as JsonObject[] }) };
}

function prepareStatusUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): KubeObject {
  const stored = conditionsOf(old);
  // The decisions (Approved, Denied) are made through `/approval` only: the stored ones win here.
  const conditions = decisionConditions.reduce((cs, type) => preserveInstances(cs, stored, type), conditionsOf(obj));
  return withConditions(withStoredSpec(obj, old), statusOf(obj), withTimestamps(conditions, stored, ctx.now));
}

function prepareApprovalUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): KubeObject {
  const conditions = withTimestamps(conditionsOf(obj), conditionsOf(old), ctx.now);
  return withConditions(withStoredSpec(obj, old), statusOf(old), conditions);
}

export const csrStrategy: Strategy = strategy({
  prepareForCreate,
  validate: validateCsrCreate,
  prepareForUpdate: (obj, old) => keepStatus(obj, old),
  validateUpdate: (obj, old, ctx) => validateCsrUpdate(obj, old, ctx, 'main'),
});

export const csrStatusStrategy: Strategy = strategy({
  prepareForUpdate: prepareStatusUpdate,
  validateUpdate: (obj, old, ctx) => validateCsrUpdate(obj, old, ctx, 'status'),
});

export const csrApprovalStrategy: Strategy = strategy({
  prepareForUpdate: prepareApprovalUpdate,
  validateUpdate: (obj, old, ctx) => validateCsrUpdate(obj, old, ctx, 'approval'),
});
