/**
 * Event columns as kubectl prints them (printEvent in pkg/printers/internalversion): the server
 * fills every column, kubectl hides the priority-1 ones unless `-o wide`.
 */
import { humanAge, parseInstant, type Instant } from '../../core/duration.ts';
import { objectField, type JsonObject } from '../../core/json.ts';
import type { KubeObject } from '../../api/meta.ts';
import { nameColumn } from '../common/tables.ts';
import type { TableColumn } from '../types.ts';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const sub = (obj: KubeObject, key: string): JsonObject => objectField(obj, key);

/** translateTimestampSince: `<unknown>` for an unset time. */
function since(text: string, now: Instant): string {
  const t = parseInstant(text);
  return t === null ? '<unknown>' : humanAge(now - t);
}

function firstSeen(obj: KubeObject, now: Instant): string {
  const first = str(obj['firstTimestamp']);
  return since(first !== '' ? first : str(obj['eventTime']), now);
}

function lastSeen(obj: KubeObject, now: Instant): string {
  const series = sub(obj, 'series');
  if (str(series['lastObservedTime']) !== '') return since(str(series['lastObservedTime']), now);
  const last = str(obj['lastTimestamp']);
  return last === '' ? firstSeen(obj, now) : since(last, now);
}

/** Singleton events of the new API have no count: they count as one. */
function count(obj: KubeObject): number {
  const series = sub(obj, 'series');
  if (typeof series['count'] === 'number') return series['count'];
  return typeof obj['count'] === 'number' && obj['count'] !== 0 ? obj['count'] : 1;
}

function target(obj: KubeObject): string {
  const ref = sub(obj, 'involvedObject');
  const kind = str(ref['kind']).toLowerCase();
  return str(ref['name']) === '' ? kind : `${kind}/${str(ref['name'])}`;
}

function source(obj: KubeObject): string {
  const src = sub(obj, 'source');
  const component = str(src['component']) || str(obj['reportingComponent']);
  const instance = str(src['host']) || str(obj['reportingInstance']);
  return instance === '' ? component : `${component}, ${instance}`;
}

const column = (name: string, description: string, priority: number, cell: TableColumn['cell']): TableColumn => ({ name, type: 'string', format: '', description, priority, cell });

export const eventColumns: readonly TableColumn[] = [
  column('Last Seen', 'The time at which the most recent occurrence of this event was recorded.', 0, lastSeen),
  column('Type', 'Type of this event (Normal, Warning), new types could be added in the future', 0, (obj) => str(obj['type'])),
  column('Reason', "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.", 0, (obj) => str(obj['reason'])),
  column('Object', 'The object that this event is about.', 0, target),
  column('Subobject', 'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2].', 1, (obj) => str(sub(obj, 'involvedObject')['fieldPath'])),
  column('Source', 'The component reporting this event. Should be a short machine understandable string.', 1, source),
  column('Message', 'A human-readable description of the status of this operation.', 0, (obj) => str(obj['message']).trim()),
  column('First Seen', 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)', 1, firstSeen),
  column('Count', 'The number of times this event has occurred.', 1, (obj) => count(obj)),
  { ...nameColumn, priority: 1 },
];
