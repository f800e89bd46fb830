/**
 * Reads a scenario file: YAML (or JSON) text → a checked `Scenario`, or every problem found with
 * its file, line and column — nothing runs when a file has one. The structure is checked against
 * scenario.schema.json (one step kind's schema per step, so a mistake is reported against what
 * the step meant to be, not against all sixteen kinds), then what a schema cannot say: durations
 * and times that parse, `${name}` naming a value captured by an earlier step, `restore` naming an
 * earlier `snapshot`.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import schema from './scenario.schema.json' with { type: 'json' };
import { parseDuration, parseInstant } from '../core/duration.ts';
import { stepKinds, type Scenario, type StepKind } from './format.ts';
import { hasOwn } from '../core/json.ts';

export interface LocatedError {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** `stepLines[i]`: the line step i starts on (for messages and the replay hint). */
export type Loaded = { readonly ok: true; readonly scenario: Scenario; readonly stepLines: readonly number[] } | { readonly ok: false; readonly errors: readonly LocatedError[] };

/** `file:line:column: message`, as compilers print. */
export const formatLocated = (e: LocatedError): string => `${e.file}:${e.line}:${e.column}: ${e.message}`;

type Path = readonly (string | number)[];

interface Validators {
  readonly top: ValidateFunction;
  readonly steps: ReadonlyMap<StepKind, ValidateFunction>;
  readonly expectations: ReadonlyMap<string, ValidateFunction>;
}

let validators: Validators | undefined;

/** Compiled once per process: the file-level schema with steps left open, and one schema per step kind. */
function compiled(): Validators {
  if (validators !== undefined) return validators;
  const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, strictTypes: false });
  ajv.addSchema(schema);
  const id = schema.$id;
  const top = ajv.compile({ ...schema, $id: `${id}#file`, properties: { ...schema.properties, steps: { type: 'array', minItems: 1, items: { type: 'object' } } } });
  const steps = new Map<StepKind, ValidateFunction>();
  for (const k of stepKinds) steps.set(k, ajv.getSchema(`${id}#/$defs/steps/${k}`)!);
  // A standalone expectation is checked by its own kind below (one branch's errors, not five).
  const expectStep = JSON.parse(JSON.stringify(schema.$defs.steps.expect).replaceAll('"#/$defs/', `"${id}#/$defs/`)) as typeof schema.$defs.steps.expect;
  steps.set('expect', ajv.compile({ ...expectStep, $id: 'https://platform-sim.local/expect-step.json', properties: { ...expectStep.properties, expect: { type: 'object' } } }));
  const expectations = new Map<string, ValidateFunction>();
  for (const [key, def] of expectationKinds) expectations.set(key, ajv.getSchema(`${id}#/$defs/${def}`)!);
  validators = { top, steps, expectations };
  return validators;
}

/** A standalone expectation's kind is the key it has of these. */
const expectationKinds: readonly (readonly [string, string])[] = [
  ['object', 'expectObject'],
  ['list', 'expectList'],
  ['absent', 'expectAbsent'],
  ['request', 'expectRequest'],
  ['token', 'expectToken'],
];

const actionKinds = stepKinds.filter((k) => k !== 'expect' && k !== 'capture');

export function loadScenario(text: string, file: string): Loaded {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const errors: LocatedError[] = [];
  const at = (offset: number, message: string): void => {
    const { line, col } = lines.linePos(offset);
    errors.push({ file, line, column: col, message });
  };
  for (const e of doc.errors) at(e.pos[0], e.message.split('\n')[0]!);
  if (errors.length > 0) return { ok: false, errors };
  const value: unknown = doc.toJS({ maxAliasCount: 100 });
  const where = (path: Path, key?: string): number => offsetOf(doc, path, key);
  const v = compiled();
  const report = (base: Path, errs: readonly ErrorObject[] | null | undefined): void => {
    for (const e of readable(errs ?? [])) {
      const path = [...base, ...pointer(e.instancePath)];
      const key = e.keyword === 'additionalProperties' ? String(e.params['additionalProperty']) : undefined;
      const what = key === undefined ? describe(path) : describe([...path, key]);
      at(where(path, key), `${what}: ${messageOf(e)}`);
    }
  };
  if (!v.top(value)) {
    report([], v.top.errors);
    return { ok: false, errors };
  }
  const scenario = value as Scenario;
  scenario.steps.forEach((step, i) => checkStep(step as unknown as Record<string, unknown>, ['steps', i], v, report, at, where));
  if (errors.length > 0) return { ok: false, errors };
  checkMeaning(scenario, at, where);
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, scenario, stepLines: scenario.steps.map((_, i) => lines.linePos(where(['steps', i])).line) };
}

function checkStep(
  step: Record<string, unknown>,
  path: Path,
  v: Validators,
  report: (base: Path, errs: readonly ErrorObject[] | null | undefined) => void,
  at: (offset: number, message: string) => void,
  where: (path: Path, key?: string) => number,
): void {
  const actions = actionKinds.filter((k) => k in step);
  if (actions.length > 1) {
    at(where(path, actions[1]), `${describe(path)}: a step does one thing; this one has ${actions.join(' and ')}`);
    return;
  }
  let kind: StepKind | undefined = actions[0];
  if (kind === undefined) {
    if ('capture' in step && !('expect' in step)) kind = 'capture';
    else if ('expect' in step && !('capture' in step)) kind = 'expect';
    else {
      at(where(path), `${describe(path)}: a step needs one of ${stepKinds.join(', ')}`);
      return;
    }
  }
  const validate = v.steps.get(kind)!;
  if (!validate(step)) {
    // An unknown key first: it is usually a misspelt step kind or option, and explains the rest.
    const errs = validate.errors ?? [];
    const extra = errs.filter((e) => e.keyword === 'additionalProperties' && e.instancePath === '');
    report(path, extra.length > 0 ? extra : errs);
    return;
  }
  if (kind === 'expect') {
    const expectation = step['expect'] as Record<string, unknown>;
    // `token` beside `request` is the request's credential, not a token review.
    const found = expectationKinds.filter(([k]) => hasOwn(expectation, k) && !(k === 'token' && hasOwn(expectation, 'request')));
    const ePath = [...path, 'expect'];
    if (found.length !== 1) {
      at(where(ePath), `${describe(ePath)}: an expectation checks one of ${expectationKinds.map(([k]) => k).join(', ')}${found.length > 1 ? `; this one has ${found.map(([k]) => k).join(' and ')}` : ''}`);
      return;
    }
    const ev = v.expectations.get(found[0]![0])!;
    if (!ev(expectation)) report(ePath, ev.errors);
  }
}

/** Durations, times, `${name}` references and snapshot names: what the schema cannot check. */
function checkMeaning(scenario: Scenario, at: (offset: number, message: string) => void, where: (path: Path, key?: string) => number): void {
  if (scenario.startTime !== undefined && parseInstant(scenario.startTime) === null) at(where(['startTime']), `startTime: "${scenario.startTime}" is not an RFC 3339 time`);
  for (const key of ['podReadyAfter', 'compactionInterval', 'serviceAccountMaxTokenExpiration', 'clusterSigningDuration'] as const) {
    const d = scenario.options?.[key];
    if (d !== undefined && !durationOk(d)) at(where(['options', key]), `options.${key}: "${d}" is not a duration`);
  }
  const captured = new Set<string>();
  const snapshots = new Set<string>();
  scenario.steps.forEach((step, i) => {
    const path: Path = ['steps', i];
    const s = step as unknown as Record<string, unknown>;
    if (typeof s['advance'] === 'string' && !durationOk(s['advance'])) at(where([...path, 'advance']), `${describe([...path, 'advance'])}: "${s['advance']}" is not a duration`);
    // References are checked before this step's own captures are added: a step cannot use what it captures.
    visitStrings(s, path, (text, p) => {
      for (const m of text.matchAll(/\$\{([^}]*)\}/g)) {
        if (!captured.has(m[1]!)) at(where(p), `${describe(p)}: \${${m[1]}} is not captured by an earlier step${captured.size === 0 ? '' : ` (captured so far: ${[...captured].sort().join(', ')})`}`);
      }
    });
    if (typeof s['restore'] === 'string' && !snapshots.has(s['restore'])) at(where([...path, 'restore']), `${describe([...path, 'restore'])}: no earlier snapshot is named "${s['restore']}"`);
    if (typeof s['snapshot'] === 'string') snapshots.add(s['snapshot']);
    const capture = s['capture'];
    if (typeof capture === 'object' && capture !== null) for (const name of Object.keys(capture)) captured.add(name);
    const csr = s['certificateRequest'] as { as?: string } | undefined;
    if (csr?.as !== undefined) {
      captured.add(`${csr.as}.request`);
      captured.add(`${csr.as}.key`);
    }
  });
}

const durationOk = (d: string): boolean => parseDuration(d) !== null;

function visitStrings(v: unknown, path: Path, f: (text: string, path: Path) => void): void {
  if (typeof v === 'string') f(v, path);
  else if (Array.isArray(v)) v.forEach((x, i) => visitStrings(x, [...path, i], f));
  else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) visitStrings(x, [...path, k], f);
}

/** What the schema's patterns mean, in words. */
const patternWords = new Map<string, string>([
  [schema.$defs.duration.pattern, 'is not a Go duration such as 500ms, 90s or 1h30m'],
  [schema.properties.startTime.pattern, 'is not an RFC 3339 time such as 2025-01-01T00:00:00Z'],
  [schema.properties.name.pattern, "must be lower-case letters, digits, '-' and '.', starting and ending with a letter or digit"],
]);

/** `/steps/2/create/metadata` → ['steps', 2, 'create', 'metadata']. */
function pointer(p: string): Path {
  if (p === '') return [];
  return p
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** `steps[2].create.metadata`: how a path reads in a message. */
function describe(path: Path): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out === '' ? p : `.${p}`;
  return out === '' ? 'the file' : out;
}

/**
 * Ajv's errors as a person wants them: `if`/`then` bookkeeping dropped, and a `oneOf` whose
 * branches each only require a different field (a field check's equals / exists / absent) said
 * once, as the choice it is.
 */
function readable(errs: readonly ErrorObject[]): ErrorObject[] {
  const out: ErrorObject[] = [];
  for (const e of errs) {
    if (e.keyword === 'if') continue;
    if (e.keyword === 'oneOf') {
      const branches = errs.filter((b) => b.instancePath === e.instancePath && b.schemaPath.startsWith(`${e.schemaPath}/`));
      if (branches.length > 0 && branches.every((b) => b.keyword === 'required')) {
        out.push({ ...e, keyword: 'choice', message: `needs one of ${branches.map((b) => `"${String(b.params['missingProperty'])}"`).join(', ')}` });
        continue;
      }
    }
    if (e.keyword === 'required' && /\/oneOf\/\d+\/required$/.test(e.schemaPath) && errs.some((o) => o.keyword === 'oneOf' && o.instancePath === e.instancePath)) continue;
    out.push(e);
  }
  return out;
}

function messageOf(e: ErrorObject): string {
  switch (e.keyword) {
    case 'additionalProperties':
      return 'unknown field';
    case 'required':
      return `"${String(e.params['missingProperty'])}" is required`;
    case 'enum':
      return `must be one of ${(e.params['allowedValues'] as unknown[]).map((x) => JSON.stringify(x)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(e.params['allowedValue'])}`;
    case 'pattern':
      return patternWords.get(String(e.params['pattern'])) ?? `must match ${String(e.params['pattern'])}`;
    default:
      return e.message ?? e.keyword;
  }
}

/** Where a path's node starts in the text (a key's own position when `key` is given); the nearest existing parent otherwise. */
function offsetOf(doc: Document, path: Path, key?: string): number {
  let node: unknown = doc.contents;
  let offset = rangeStart(node);
  for (const p of path) {
    const next = childOf(node, p);
    if (next === undefined) break;
    node = next.value;
    offset = rangeStart(next.value) ?? rangeStart(next.key) ?? offset;
  }
  if (key !== undefined) {
    const pair = isMap(node) ? node.items.find((it) => isScalar(it.key) && it.key.value === key) : undefined;
    offset = rangeStart(pair?.key) ?? offset;
  }
  return offset ?? 0;
}

function childOf(node: unknown, p: string | number): { key?: unknown; value: unknown } | undefined {
  if (isMap(node)) {
    const pair = node.items.find((it) => isScalar(it.key) && it.key.value === p);
    return pair === undefined ? undefined : { key: pair.key, value: pair.value ?? pair.key };
  }
  if (isSeq(node) && typeof p === 'number') {
    const item = node.items[p];
    return item === undefined ? undefined : { value: item };
  }
  return undefined;
}

const rangeStart = (node: unknown): number | undefined => (node as YamlNode | undefined)?.range?.[0];
