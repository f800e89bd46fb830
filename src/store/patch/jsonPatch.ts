/**
 * JSON patch (RFC 6902) as the API server applies it (evanphx/json-patch v4): operations in
 * order on a copy; `replace` of a missing object key adds it (a v4 quirk); any failed operation
 * is the generic 422; more than 10,000 operations is 413. Never mutates the input.
 */
import { cloneJson, deepEqual, hasOwn, isObject, setOwn, type JsonObject, type JsonValue } from '../../core/json.ts';
import { errors } from '../../core/status.ts';
import { limits } from '../../core/limits.ts';
import type { PatchResult } from './types.ts';

class OpFailed extends Error {}

function pointer(path: unknown): string[] {
  if (typeof path !== 'string' || (path !== '' && !path.startsWith('/'))) throw new OpFailed('bad path');
  return path === '' ? [] : path.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function index(arr: JsonValue[], seg: string, forAdd: boolean): number {
  if (seg === '-' && forAdd) return arr.length;
  if (!/^(0|[1-9]\d*)$/.test(seg)) throw new OpFailed('bad index');
  const i = Number(seg);
  if (i > arr.length || (!forAdd && i === arr.length)) throw new OpFailed('index out of range');
  return i;
}

/** Returns a copy of `doc` with the parent container of `path` copied, and the parent. */
function parentOf(root: JsonValue, segs: string[]): JsonValue {
  let cur = root;
  for (const seg of segs.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[index(cur, seg, false)]!;
    else if (isObject(cur) && hasOwn(cur, seg)) cur = cur[seg]!;
    else throw new OpFailed('missing parent');
  }
  return cur;
}

function get(root: JsonValue, segs: string[]): JsonValue {
  if (segs.length === 0) return root;
  const parent = parentOf(root, segs);
  const last = segs[segs.length - 1]!;
  if (Array.isArray(parent)) return parent[index(parent, last, false)]!;
  if (isObject(parent) && hasOwn(parent, last)) return parent[last]!;
  throw new OpFailed('missing');
}

function put(root: JsonValue, segs: string[], value: JsonValue, mode: 'add' | 'replace'): JsonValue {
  if (segs.length === 0) return value;
  const parent = parentOf(root, segs);
  const last = segs[segs.length - 1]!;
  if (Array.isArray(parent)) {
    const i = index(parent, last, mode === 'add');
    if (mode === 'add') parent.splice(i, 0, value);
    else parent[i] = value;
  } else if (isObject(parent)) setOwn(parent, last, value);
  else throw new OpFailed('parent is not a container');
  return root;
}

function remove(root: JsonValue, segs: string[]): JsonValue {
  if (segs.length === 0) throw new OpFailed('cannot remove root');
  const parent = parentOf(root, segs);
  const last = segs[segs.length - 1]!;
  if (Array.isArray(parent)) parent.splice(index(parent, last, false), 1);
  else if (isObject(parent) && hasOwn(parent, last)) delete (parent as JsonObject)[last];
  else throw new OpFailed('missing');
  return root;
}

export function applyJsonPatch(doc: JsonValue, patch: unknown): PatchResult {
  if (!Array.isArray(patch)) {
    const t = patch === null ? 'null' : isObject(patch) ? 'object' : typeof patch === 'boolean' ? 'bool' : typeof patch;
    return { ok: false, error: errors.badRequest(`json: cannot unmarshal ${t} into Go value of type jsonpatch.Patch`) };
  }
  if (patch.length > limits.jsonPatchOperationsMax) return { ok: false, error: errors.entityTooLarge(`The allowed maximum operations in a JSON patch is ${limits.jsonPatchOperationsMax}, got ${patch.length}`) };
  let cur = cloneJson(doc);
  try {
    for (const op of patch) {
      if (!isObject(op)) throw new OpFailed('operation is not an object');
      const segs = pointer(op['path']);
      const value = (): JsonValue => {
        if (!hasOwn(op, 'value')) throw new OpFailed('missing value');
        return cloneJson(op['value']!);
      };
      switch (op['op']) {
        case 'add':
          cur = put(cur, segs, value(), 'add');
          break;
        case 'replace':
          if (segs.length > 0 && Array.isArray(parentOf(cur, segs))) get(cur, segs);
          cur = put(cur, segs, value(), 'replace');
          break;
        case 'remove':
          cur = remove(cur, segs);
          break;
        case 'move': {
          const from = pointer(op['from']);
          const v = get(cur, from);
          cur = put(remove(cur, from), segs, v, 'add');
          break;
        }
        case 'copy':
          cur = put(cur, segs, cloneJson(get(cur, pointer(op['from']))), 'add');
          break;
        case 'test':
          if (!deepEqual(get(cur, segs), value())) throw new OpFailed('test failed');
          break;
        default:
          throw new OpFailed('unknown op');
      }
    }
  } catch (e) {
    if (e instanceof OpFailed) return { ok: false, error: errors.invalidGeneric() };
    throw e;
  }
  return { ok: true, value: cur };
}
