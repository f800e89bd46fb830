/**
 * Building field sets: a mutable builder keyed by the serialized element, sorted once at the end.
 *
 * Rules this file keeps:
 * - A builder never leaves this build: `builderFinish` returns the immutable, sorted set with
 *   empty children dropped (the form fieldSet.ts requires).
 * - An element is known by its fieldsV1 key, so equal elements meet whatever their object form.
 * Must not know: schemas, objects, the fieldsV1 trie.
 */
import { emptyFieldSet, isEmptySet, type FieldSet, type FieldSetChild } from './fieldSet.ts';
import { comparePathElements, type Path, type PathElement } from './pathElement.ts';
import { serializePathElement } from './pathString.ts';

export interface FieldSetBuilder {
  readonly members: Map<string, PathElement>;
  readonly children: Map<string, { element: PathElement; node: FieldSetBuilder }>;
}

export function newBuilder(): FieldSetBuilder {
  return { members: new Map(), children: new Map() };
}

/** Adds a non-empty path: its last element a member, the ones before it children. */
export function builderInsert(b: FieldSetBuilder, path: Path): void {
  let node = b;
  for (let i = 0; i < path.length; i++) {
    const e = path[i]!;
    const k = serializePathElement(e);
    if (i === path.length - 1) {
      node.members.set(k, e);
      return;
    }
    let child = node.children.get(k);
    if (child === undefined) {
      child = { element: e, node: newBuilder() };
      node.children.set(k, child);
    }
    node = child.node;
  }
}

export function builderFinish(b: FieldSetBuilder): FieldSet {
  const members = [...b.members.values()].sort(comparePathElements);
  const children: FieldSetChild[] = [];
  for (const { element, node } of b.children.values()) {
    const set = builderFinish(node);
    if (!isEmptySet(set)) children.push({ element, set });
  }
  children.sort((x, y) => comparePathElements(x.element, y.element));
  return { members, children };
}

export function fieldSetFromPaths(paths: Iterable<Path>): FieldSet {
  // Most comparisons find nothing added or nothing removed: no builder (two Maps) for those.
  if (Array.isArray(paths) && paths.length === 0) return emptyFieldSet;
  const b = newBuilder();
  for (const p of paths) if (p.length > 0) builderInsert(b, p);
  return builderFinish(b);
}
