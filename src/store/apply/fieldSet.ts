/**
 * Field sets: the paths a field manager owns, and the set algebra on them.
 *
 * Rules this file keeps:
 * - A set is a trie. At each level `members` are the paths that end there and `children` the
 *   paths that go on; a path may be both (`".": {}` in fieldsV1). Arrays are kept sorted by
 *   element and child sets are never empty, so equal sets are deep-equal and output is
 *   deterministic.
 * - Everything is pure: sets are immutable values, functions return new sets.
 * Must not know: schemas, objects, the fieldsV1 encoding, how sets are built (fieldSetBuilder.ts).
 */
import { comparePathElements, zipByElement, type Path, type PathElement } from './pathElement.ts';

export interface FieldSetChild {
  readonly element: PathElement;
  readonly set: FieldSet;
}

export interface FieldSet {
  readonly members: readonly PathElement[];
  readonly children: readonly FieldSetChild[];
}

export const emptyFieldSet: FieldSet = { members: [], children: [] };

// ---------------------------------------------------------------------------------------------
// Queries

export function isEmptySet(s: FieldSet): boolean {
  return s.members.length === 0 && s.children.length === 0;
}

export function hasMember(s: FieldSet, e: PathElement): boolean {
  return s.members.some((m) => comparePathElements(m, e) === 0);
}

export function childSet(s: FieldSet, e: PathElement): FieldSet | undefined {
  return s.children.find((c) => comparePathElements(c.element, e) === 0)?.set;
}

export function hasPath(s: FieldSet, path: Path): boolean {
  let node: FieldSet | undefined = s;
  for (let i = 0; i < path.length - 1 && node !== undefined; i++) node = childSet(node, path[i]!);
  const last = path[path.length - 1];
  return node !== undefined && last !== undefined && hasMember(node, last);
}

/** Every path, in upstream iteration order: at each level the members, then the children. */
export function pathsOf(s: FieldSet, prefix: Path = []): Path[] {
  const out: Path[] = s.members.map((m) => [...prefix, m]);
  for (const c of s.children) out.push(...pathsOf(c.set, [...prefix, c.element]));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Set algebra

const self = (e: PathElement): PathElement => e;
const elementOf = (c: FieldSetChild): PathElement => c.element;

function mergeMembers(a: FieldSet, b: FieldSet, keep: (inA: boolean, inB: boolean) => boolean): PathElement[] {
  const out: PathElement[] = [];
  zipByElement(a.members, b.members, self, self, (x, y) => {
    if (keep(x !== undefined, y !== undefined)) out.push((x ?? y)!);
  });
  return out;
}

function pushChild(out: FieldSetChild[], element: PathElement, set: FieldSet): void {
  if (!isEmptySet(set)) out.push({ element, set });
}

/**
 * Paths of either set. `b` itself when `a` adds nothing to it, so that an owner gaining fields it
 * already has keeps its set (and its encoding, fieldsV1.ts).
 */
export function union(a: FieldSet, b: FieldSet): FieldSet {
  if (isEmptySet(a)) return b;
  if (isEmptySet(b)) return a;
  const children: FieldSetChild[] = [];
  let same = true;
  zipByElement(a.children, b.children, elementOf, elementOf, (x, y) => {
    if (x !== undefined && y !== undefined) {
      const u = union(x.set, y.set);
      if (u === y.set) children.push(y);
      else {
        same = false;
        pushChild(children, x.element, u);
      }
    } else {
      if (y === undefined) same = false;
      children.push((x ?? y)!);
    }
  });
  const members = mergeMembers(a, b, (x, y) => x || y);
  return same && members.length === b.members.length ? b : { members, children };
}

export function intersection(a: FieldSet, b: FieldSet): FieldSet {
  const children: FieldSetChild[] = [];
  zipByElement(a.children, b.children, elementOf, elementOf, (x, y) => {
    if (x !== undefined && y !== undefined) pushChild(children, x.element, intersection(x.set, y.set));
  });
  return { members: mergeMembers(a, b, (x, y) => x && y), children };
}

/**
 * Paths of `a` that are not paths of `b` (a member of `b` does not cover `a`'s deeper paths).
 * `a` itself when nothing of it goes, so that an owner a write does not touch keeps its set.
 */
export function difference(a: FieldSet, b: FieldSet): FieldSet {
  if (isEmptySet(a) || isEmptySet(b)) return a;
  const children: FieldSetChild[] = [];
  let same = true;
  zipByElement(a.children, b.children, elementOf, elementOf, (x, y) => {
    if (x === undefined) return;
    if (y === undefined) {
      children.push(x);
      return;
    }
    const rest = difference(x.set, y.set);
    if (rest === x.set) children.push(x);
    else {
      same = false;
      pushChild(children, x.element, rest);
    }
  });
  const members = mergeMembers(a, b, (x, y) => x && !y);
  return same && members.length === a.members.length ? a : { members, children };
}

/** Like `difference`, but a member of `b` also removes every path of `a` below it. */
export function recursiveDifference(a: FieldSet, b: FieldSet): FieldSet {
  if (isEmptySet(a) || isEmptySet(b)) return a;
  const children: FieldSetChild[] = [];
  for (const c of a.children) {
    if (hasMember(b, c.element)) continue;
    const sub = childSet(b, c.element);
    if (sub === undefined) children.push(c);
    else pushChild(children, c.element, recursiveDifference(c.set, sub));
  }
  return { members: mergeMembers(a, b, (x, y) => x && !y), children };
}
