/**
 * Owners: one managedFields entry, decoded, and the identifier owners are keyed by.
 *
 * Rules this file keeps:
 * - The identifier is upstream's: the entry's JSON without time and fields, and without the
 *   apiVersion for Apply owners (so an applier keeps one entry whatever version it applies with).
 * - Times order by whole seconds, as upstream compares metav1.Time; an absent or unreadable
 *   time counts as zero.
 * Must not know: how entries are encoded, compared objects, requests.
 */
import { parseInstant } from '../../core/duration.ts';
import { goJson } from '../../core/goFormat.ts';
import type { FieldSet } from './fieldSet.ts';

export type Operation = 'Apply' | 'Update';

/** One managedFields entry, decoded. */
export interface Owner {
  readonly manager: string;
  readonly operation: Operation;
  readonly apiVersion: string;
  /** '' for the main resource. */
  readonly subresource: string;
  readonly time?: string;
  readonly fields: FieldSet;
}

/** Owners by identifier. */
export type Owners = ReadonlyMap<string, Owner>;

/** The upstream identifier: the entry's JSON without time, fields, and (for Apply) apiVersion. */
/** Every write names its owners: the few distinct ones are worked out once (bounded). */
const ownerIds = new Map<string, string>();
const ownerIdsMax = 1024;

export function ownerId(o: Pick<Owner, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  // NUL-separated (JSON.stringify of the four cost as much as the lookup saved). Fields holding
  // NUL themselves could make two owners share that key: they take the JSON form, which has none.
  const nul = '\u0000';
  const key =
    o.manager.includes(nul) || o.operation.includes(nul) || o.apiVersion.includes(nul) || o.subresource.includes(nul)
      ? JSON.stringify([o.manager, o.operation, o.apiVersion, o.subresource])
      : `${o.manager}${nul}${o.operation}${nul}${o.apiVersion}${nul}${o.subresource}`;
  let id = ownerIds.get(key);
  if (id === undefined) {
    if (ownerIds.size >= ownerIdsMax) ownerIds.clear();
    ownerIds.set(key, (id = ownerIdOf(o)));
  }
  return id;
}

function ownerIdOf(o: Pick<Owner, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  const parts: string[] = [];
  if (o.manager !== '') parts.push(`"manager":${goJson(o.manager)}`);
  parts.push(`"operation":${goJson(o.operation)}`);
  if (o.operation === 'Update' && o.apiVersion !== '') parts.push(`"apiVersion":${goJson(o.apiVersion)}`);
  if (o.subresource !== '') parts.push(`"subresource":${goJson(o.subresource)}`);
  return `{${parts.join(',')}}`;
}

/** An owner's time in whole seconds (0 when absent), the precision upstream sorts by. */
export function ownerTimeSeconds(t: string | undefined): number {
  const ms = t === undefined ? null : parseInstant(t);
  return ms === null ? 0 : Math.floor(ms / 1000);
}
