/**
 * Step 5 of server-side apply: who owns the fields the apply changes.
 *
 * Rules this file keeps:
 * - Fields whose value changed (or that appeared) and that another manager owns are conflicts:
 *   409 with upstream's message and one cause per field, managers sorted by identifier, unless
 *   `force`, which takes the fields from their owners. Equal values are shared.
 * - Fields that disappeared leave every owner; the applier's own entry is left as it is.
 * Must not know: how the object was merged or pruned, how owners are encoded.
 */
import type { Schema } from '../../api/schema.ts';
import { compareStrings } from '../../core/compareStrings.ts';
import { goQuote } from '../../core/goFormat.ts';
import type { JsonObject } from '../../core/json.ts';
import type { ApiError, StatusCause } from '../../core/status.ts';
import { compareOwned } from './compareObjects.ts';
import { intersection, isEmptySet, pathsOf, union, type FieldSet } from './fieldSet.ts';
import { takeFields } from './managedFields.ts';
import type { Owner } from './owners.ts';
import { pathString } from './pathString.ts';

export interface ConflictsInput {
  readonly schema: Schema;
  readonly force: boolean;
  readonly resetFields?: readonly string[];
}

/** Conflicts (409 unless forced), forced fields taken, vanished fields released. */
export function settleConflicts(
  owners: Map<string, Owner>,
  applierId: string,
  before: JsonObject,
  after: JsonObject,
  input: ConflictsInput,
): { ok: true; owners: Map<string, Owner> } | { ok: false; error: ApiError } {
  const cmp = compareOwned(before, after, input.schema, input.resetFields ?? []);
  const changedFields = union(cmp.modified, cmp.added);
  const conflicts = findConflicts(owners, applierId, changedFields);
  if (conflicts.length > 0 && !input.force) return { ok: false, error: conflictError(conflicts) };
  return { ok: true, owners: takeFields(owners, changedFields, cmp.removed, applierId) };
}

interface Conflict {
  readonly id: string;
  readonly owner: Owner;
  readonly fields: FieldSet;
}

function findConflicts(owners: ReadonlyMap<string, Owner>, applierId: string, changed: FieldSet): Conflict[] {
  const out: Conflict[] = [];
  for (const [id, owner] of owners) {
    if (id === applierId) continue;
    const fields = intersection(owner.fields, changed);
    if (!isEmptySet(fields)) out.push({ id, owner, fields });
  }
  // Upstream sorts managers by identifier (which starts with the name).
  return out.sort((a, b) => compareStrings(a.id, b.id));
}

/** `"name"`, then ` with subresource "x"`, then ` using <apiVersion>` for Update owners. */
export function printManager(o: Pick<Owner, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  let s = goQuote(o.manager);
  if (o.subresource !== '') s += ` with subresource ${goQuote(o.subresource)}`;
  return o.operation === 'Update' ? `${s} using ${o.apiVersion}` : s;
}

function conflictError(conflicts: readonly Conflict[]): ApiError {
  const flat = conflicts.flatMap((c) => pathsOf(c.fields).map((p) => ({ who: printManager(c.owner), path: pathString(p) })));
  let message: string;
  if (flat.length === 1) message = `Apply failed with 1 conflict: conflict with ${flat[0]!.who}: ${flat[0]!.path}`;
  else {
    const lines = conflicts.flatMap((c) => [`conflicts with ${printManager(c.owner)}:`, ...pathsOf(c.fields).map((p) => `- ${pathString(p)}`)]);
    message = `Apply failed with ${flat.length} conflicts: ${lines.join('\n')}`;
  }
  const causes: StatusCause[] = flat.map((f) => ({ reason: 'FieldManagerConflict', message: `conflict with ${f.who}`, field: f.path }));
  return {
    kind: 'ApiError',
    status: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Conflict', details: { causes }, code: 409 },
  };
}
