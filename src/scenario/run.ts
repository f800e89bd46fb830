/**
 * Runs a scenario step by step against a driver and records what happened: each step with its
 * virtual time, what the controllers did after it (from the trace), and the first failure with
 * what was expected and what was seen. A step that needs what the target lacks (virtual time on a
 * real cluster) ends the run there as skipped, with the reason. Same scenario, seed and driver →
 * the same record, byte for byte.
 */
import { InvariantError } from '../core/assert.ts';
import { parseInstant } from '../core/duration.ts';
import type { TraceEvent } from '../edges/simulation/trace.ts';
import type { KubeObject } from '../api/meta.ts';
import type { Answer, Capability, DriverRequest, ScenarioDriver } from './driver.ts';
import { parseFieldPath, readFieldPath } from '../core/fieldPath.ts';
import { kindOf, type AnswerExpectation, type Credentials, type Expectation, type FieldCheck, type Manifest, type ObjectRef, type Scenario, type Step, type StepCommon, type TokenExpectation } from './format.ts';
import { InProcessDriver } from './inProcess.ts';
import { Kinds, ScenarioError } from './kinds.ts';
import { matchShape } from './match.ts';
import { getOwn } from '../core/json.ts';

export interface Failure {
  readonly message: string;
  readonly expected?: unknown;
  readonly seen?: unknown;
}

export interface StepRecord {
  /** 1-based, as people count steps. */
  readonly step: number;
  readonly line?: number;
  readonly title: string;
  /** Virtual time when the step began, and as an offset from the start (`+01:30`). */
  readonly at?: string;
  readonly offset?: string;
  readonly outcome: 'passed' | 'failed' | 'skipped';
  /** What controllers did after the step, one line each. */
  readonly controllers: readonly string[];
  readonly failure?: Failure;
  readonly skipped?: string;
}

export interface ScenarioResult {
  readonly name: string;
  readonly file?: string;
  readonly description?: string;
  readonly seed: number;
  readonly outcome: 'passed' | 'failed' | 'skipped';
  readonly steps: readonly StepRecord[];
  /** The command that runs this scenario again, alone, with this seed. */
  readonly replay: string;
  readonly skipped?: string;
  /** Tokens issued by TokenRequests during the run: when, until when, for whom (reports draw their windows). */
  readonly tokens: readonly IssuedToken[];
}

export interface IssuedToken {
  readonly step: number;
  readonly account: string;
  readonly issuedAt: string;
  readonly expires: string;
  readonly audiences: readonly string[];
  readonly boundTo?: string;
}

export interface RunOptions {
  /** Overrides the scenario's seed. */
  readonly seed?: number;
  /** Where the scenario came from (for the replay command and reports). */
  readonly file?: string;
  /** Line of each step in the file, by index. */
  readonly stepLines?: readonly number[];
  /** What the scenario runs against (default: a simulation in this process). */
  readonly driver?: (scenario: Scenario, seed: number) => Promise<ScenarioDriver>;
  /** Called after each step, as it happens (for live output). */
  readonly onStep?: (record: StepRecord) => void;
  /** Called before the driver is closed, with every trace event of the run (reports are drawn from them). */
  readonly onFinish?: (driver: ScenarioDriver, result: ScenarioResult, events: readonly TraceEvent[], objectAt: (rv: number) => KubeObject | undefined) => void;
}

/** How long a check is retried on a target whose controllers run on their own. */
const eventualTries = 60;
const eventualPauseMs = 500;

export async function runScenario(scenario: Scenario, options: RunOptions = {}): Promise<ScenarioResult> {
  const seed = options.seed ?? scenario.seed ?? 1;
  const driver = await (options.driver ?? InProcessDriver.start)(scenario, seed);
  const steps: StepRecord[] = [];
  const file = options.file;
  const replay = `platform-sim run ${file ?? '<file>'} --only ${scenario.name} --seed ${seed}`;
  // A target that cannot take this scenario at all (another server's options) skips it from the first step.
  let skipped: string | undefined = driver.cannot('scenario');
  let failed = false;
  try {
    const ctx = new Context(driver, new Kinds(driver));
    const start = await driver.now();
    await driver.newEvents();
    const events: TraceEvent[] = [];
    for (const [i, step] of scenario.steps.entries()) {
      const at = await driver.now();
      const line = options.stepLines?.[i];
      const base = { step: i + 1, ...(line === undefined ? {} : { line }), title: ctx.titleOf(step), ...(at === undefined ? {} : { at, offset: offsetOf(start!, at) }) };
      if (failed || skipped !== undefined) {
        const record: StepRecord = { ...base, outcome: 'skipped', controllers: [], skipped: failed ? 'an earlier step failed' : skipped! };
        steps.push(record);
        // A scenario the target cannot take at all says why once, at its first step.
        if (!failed && i === 0) options.onStep?.(record);
        continue;
      }
      const lacking = needs(step).map((c) => driver.cannot(c)).find((why) => why !== undefined);
      if (lacking !== undefined) {
        skipped = `step ${i + 1} (${base.title}): ${lacking}`;
        const record: StepRecord = { ...base, outcome: 'skipped', controllers: [], skipped: lacking };
        steps.push(record);
        options.onStep?.(record);
        continue;
      }
      let failure: Failure | null;
      try {
        ctx.step = i + 1;
        ctx.at = at;
        failure = await ctx.run(step);
      } catch (e) {
        // A broken invariant (option checkInvariants) is a finding of the step that broke it, not a crash of the run.
        if (!(e instanceof ScenarioError) && !(e instanceof InvariantError)) throw e;
        failure = { message: e.message };
      }
      const stepEvents = await driver.newEvents();
      events.push(...stepEvents);
      const controllers = narrate(stepEvents, ctx.kinds, start, at, (rv) => driver.objectAt?.(rv));
      const record: StepRecord = failure === null ? { ...base, outcome: 'passed', controllers } : { ...base, outcome: 'failed', controllers, failure };
      if (failure !== null) failed = true;
      steps.push(record);
      options.onStep?.(record);
    }
    const result: ScenarioResult = {
      name: scenario.name,
      ...(file === undefined ? {} : { file }),
      ...(scenario.description === undefined ? {} : { description: scenario.description }),
      seed,
      outcome: failed ? 'failed' : skipped !== undefined ? 'skipped' : 'passed',
      steps,
      replay,
      ...(skipped === undefined || failed ? {} : { skipped }),
      tokens: ctx.tokens,
    };
    options.onFinish?.(driver, result, events, (rv) => driver.objectAt?.(rv));
    return result;
  } finally {
    await driver.close();
  }
}

/** What a step needs of the target beyond requests. */
function needs(step: Step): Capability[] {
  const out: Capability[] = [];
  const s = step as unknown as Record<string, unknown>;
  if ('advance' in s) out.push('time');
  if ('fault' in s) out.push('faults');
  if ('snapshot' in s || 'restore' in s) out.push('snapshots');
  if (usesClientCertificate(s)) out.push('clientCertificates');
  return out;
}

const usesClientCertificate = (s: Record<string, unknown>): boolean => 'clientCertificate' in s || (typeof s['expect'] === 'object' && s['expect'] !== null && 'clientCertificate' in s['expect']);

const manifestsOf = (m: Manifest | readonly Manifest[]): readonly Manifest[] => (Array.isArray(m) ? m : [m as Manifest]);

/** `create ServiceAccount builder`: a step in a few words (its `name` when it has one). */
export function titleOf(step: Step): string {
  if (step.name !== undefined) return step.name;
  const s = step as Record<string, any>;
  const objects = (ms: Manifest | readonly Manifest[]): string => manifestsOf(ms).map((m) => `${m.kind} ${m.metadata.name ?? `${m.metadata.generateName ?? ''}…`}`).join(', ');
  const kind = kindOf(step);
  switch (kind) {
    case 'create':
    case 'apply':
    case 'update':
      return `${kind} ${objects(s[kind])}`;
    case 'patch':
      return `patch ${s.patch.kind} ${s.patch.name}${s.patch.subresource === undefined ? '' : `/${s.patch.subresource}`}`;
    case 'delete':
      return `delete ${(Array.isArray(s.delete) ? s.delete : [s.delete]).map((r: ObjectRef) => `${r.kind} ${r.name}`).join(', ')}`;
    case 'request':
      return `${s.request.method} ${s.request.path}`;
    case 'approve':
    case 'deny':
      return `${kind} CertificateSigningRequest ${s[kind].name}`;
    case 'advance':
      return `advance ${s.advance}`;
    case 'settle':
      return 'settle';
    case 'capture':
      return `capture ${Object.keys(s.capture).join(', ')}`;
    case 'fault':
      return s.fault === 'clear' ? 'clear faults' : `fault ${s.fault.map((r: { name?: string; code: number }) => r.name ?? String(r.code)).join(', ')}`;
    case 'snapshot':
      return `snapshot ${s.snapshot}`;
    case 'restore':
      return `restore ${s.restore}`;
    case 'certificateRequest':
      return `certificate request ${s.certificateRequest.as} (CN=${s.certificateRequest.commonName})`;
    case 'expect': {
      const e = s.expect;
      if ('object' in e) return `expect ${e.object.kind} ${e.object.name}`;
      if ('list' in e) return `expect ${e.list.kind} list${e.count === undefined ? '' : ` of ${e.count}`}`;
      if ('absent' in e) return `expect no ${e.absent.kind} ${e.absent.name}`;
      if ('request' in e) return `expect ${e.request.method} ${e.request.path}${e.status === undefined ? '' : ` → ${e.status}`}`;
      return `expect token ${e.authenticated ? 'authenticated' : 'not authenticated'}`;
    }
  }
}

/** `+01:30`, `+1:02:03`, `+2d03:00:00`: time since the start. */
export function offsetOf(start: string, at: string): string {
  let s = Math.floor(((parseInstant(at) ?? 0) - (parseInstant(start) ?? 0)) / 1000);
  const days = Math.floor(s / 86400);
  s -= days * 86400;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const two = (n: number): string => String(n).padStart(2, '0');
  if (days > 0) return `+${days}d${two(h)}:${two(m)}:${two(sec)}`;
  return h > 0 ? `+${h}:${two(m)}:${two(sec)}` : `+${two(m)}:${two(sec)}`;
}

/**
 * Controller writes (and refused controller writes) as lines: `statefulset-controller: created Pod
 * web-2 (…)`, led by their time where it is not the step's own (during an `advance`).
 */
function narrate(events: readonly TraceEvent[], kinds: Kinds, start: string | undefined, stepAt: string | undefined, objectAt: (rv: number) => KubeObject | undefined): string[] {
  const out: string[] = [];
  const when = (at: string): string => (start === undefined || at === stepAt ? '' : `${offsetOf(start, at)} `);
  for (const e of events) {
    // Events are the controllers' own commentary on these writes: the trace keeps them, the narration does not repeat them.
    if (e.type === 'write' && e.by !== 'api' && e.resource !== 'core/events') {
      const verb = e.change === 'ADDED' ? 'created' : e.change === 'MODIFIED' ? 'updated' : 'deleted';
      const kind = kinds.kindOfResource(e.resource);
      // A StatefulSet's pods say which revision they run (where the driver knows the object).
      const revision = e.change === 'DELETED' ? undefined : objectAt(e.rv)?.metadata.labels?.['controller-revision-hash'];
      const details = [e.summary ?? '', revision === undefined ? '' : `revision ${revision}`].filter((d) => d !== '').join(', ');
      out.push(`${when(e.at)}${e.by}: ${verb} ${kind} ${e.name}${details === '' ? '' : ` (${details})`}`);
    } else if (e.type === 'rejected') out.push(`${when(e.at)}${e.by}: a write was refused: ${e.intent} → ${e.code} ${e.reason}: ${e.message}`);
  }
  return out;
}

/** The state of one run: captured values and the target. */
class Context {
  readonly #captured = new Map<string, unknown>();
  readonly tokens: IssuedToken[] = [];
  /** The step being run (1-based) and the virtual time it began at. */
  step = 0;
  at: string | undefined;
  constructor(
    readonly driver: ScenarioDriver,
    readonly kinds: Kinds,
  ) {}

  /** The step's title with the values captured so far in place of their `${name}`. */
  titleOf(step: Step): string {
    try {
      return titleOf(this.#substitute(step) as Step);
    } catch {
      return titleOf(step);
    }
  }

  /** Carries out one step: null when it went as expected, else what did not. */
  async run(raw: Step): Promise<Failure | null> {
    const step = this.#substitute(raw) as Step;
    const s = step as Record<string, any>;
    const kind = kindOf(step);
    // For the action kinds: their answer's expectation and captures (the standalone ones have neither).
    const acting = step as StepCommon;
    switch (kind) {
      case 'create':
      case 'apply':
      case 'update':
        return this.#each(acting, manifestsOf(s[kind]), (m) => this.#write(step, kind, m, s['fieldManager']));
      case 'patch': {
        const p = s.patch as ObjectRef & { type?: string; subresource?: string; patch: unknown };
        const path = `${await this.kinds.objectPath(p)}${p.subresource === undefined ? '' : `/${p.subresource}`}`;
        const type = p.type ?? 'merge';
        const query = type === 'apply' ? '?fieldManager=platform-sim-scenario&force=true' : '';
        const body = type === 'apply' ? JSON.stringify(p.patch) : p.patch;
        return this.#each(acting, [null], () => this.#send(step, { method: 'PATCH', path: path + query, headers: { 'content-type': getOwn(patchTypes, type)! }, body }));
      }
      case 'delete': {
        const refs = Array.isArray(s.delete) ? (s.delete as ObjectRef[]) : [s.delete as ObjectRef & { propagationPolicy?: string; gracePeriodSeconds?: number }];
        return this.#each(acting, refs, async (r) => {
          const opts = r as { propagationPolicy?: string; gracePeriodSeconds?: number };
          const body = opts.propagationPolicy === undefined && opts.gracePeriodSeconds === undefined ? undefined : { apiVersion: 'v1', kind: 'DeleteOptions', ...(opts.propagationPolicy === undefined ? {} : { propagationPolicy: opts.propagationPolicy }), ...(opts.gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds: opts.gracePeriodSeconds }) };
          return this.#send(step, { method: 'DELETE', path: await this.kinds.objectPath(r), ...(body === undefined ? {} : { body }) });
        });
      }
      case 'request': {
        const r = s.request as { method: string; path: string; body?: unknown; headers?: Record<string, string> };
        const answer = await this.#send(step, { method: r.method, path: r.path, ...(r.headers === undefined ? {} : { headers: r.headers }), ...(r.body === undefined ? {} : { body: r.body }) });
        return acting.expect === undefined ? this.#capture(acting, answer) : (checkAnswer(acting.expect, answer, false) ?? this.#capture(acting, answer));
      }
      case 'approve':
      case 'deny':
        return this.#each(acting, [null], () => this.#decide(step, kind, s[kind]));
      case 'advance':
        await this.driver.advance(s.advance);
        return null;
      case 'settle':
        await this.driver.settle();
        return null;
      case 'fault':
        await this.driver.setFaults(s.fault === 'clear' ? null : s.fault);
        return null;
      case 'snapshot':
        await this.driver.snapshot(s.snapshot);
        return null;
      case 'restore':
        await this.driver.restore(s.restore);
        return null;
      case 'certificateRequest': {
        const c = s.certificateRequest;
        const made = await this.driver.certificateRequest({ commonName: c.commonName, ...(c.organizations === undefined ? {} : { organizations: c.organizations }), ...(c.dnsNames === undefined ? {} : { dnsNames: c.dnsNames }), ...(c.ipAddresses === undefined ? {} : { ipAddresses: c.ipAddresses }) });
        this.#captured.set(`${c.as}.request`, base64(made.request));
        this.#captured.set(`${c.as}.key`, made.privateKey);
        return null;
      }
      case 'capture':
        for (const [name, spec] of Object.entries(s.capture as Record<string, { object: ObjectRef; path: string }>)) {
          const got = await this.#get(spec.object);
          if (got.status !== 200) return { message: `capture ${name}: ${spec.object.kind} ${spec.object.name} could not be read: ${describeAnswer(got)}` };
          const value = this.#read(got.body, spec.path);
          if (!value.found) return { message: `capture ${name}: ${spec.object.kind} ${spec.object.name} has no ${spec.path}`, seen: got.body };
          this.#captured.set(name, value.value);
        }
        return null;
      case 'expect':
        return this.#eventually(() => this.#check(s.expect as Expectation));
    }
  }

  /** Runs a check; where controllers run on their own, again until it holds or time runs out. */
  async #eventually(check: () => Promise<Failure | null>): Promise<Failure | null> {
    let failure = await check();
    for (let i = 1; failure !== null && this.driver.eventual && i < eventualTries; i++) {
      await this.driver.pause(eventualPauseMs);
      failure = await check();
    }
    return failure;
  }

  async #check(e: Expectation): Promise<Failure | null> {
    if ('object' in e) {
      const got = await this.#get(e.object);
      if (got.status !== 200) return { message: `${e.object.kind} ${e.object.name} could not be read: ${describeAnswer(got)}` };
      return checkShape(e, got.body);
    }
    if ('absent' in e) {
      const got = await this.#get(e.absent);
      return got.status === 404 ? null : { message: `${e.absent.kind} ${e.absent.name} should not exist, but GET answered ${describeAnswer(got)}`, seen: got.body };
    }
    if ('list' in e) {
      const c = await this.kinds.collection(e.list.apiVersion, e.list.kind, e.list.namespace);
      if (typeof c === 'string') throw new ScenarioError(c);
      const query = [e.list.labelSelector === undefined ? '' : `labelSelector=${encodeURIComponent(e.list.labelSelector)}`, e.list.fieldSelector === undefined ? '' : `fieldSelector=${encodeURIComponent(e.list.fieldSelector)}`].filter((q) => q !== '').join('&');
      const got = await this.driver.request({ method: 'GET', path: query === '' ? c.path : `${c.path}?${query}` });
      if (got.status !== 200) return { message: `the ${e.list.kind} list could not be read: ${describeAnswer(got)}` };
      const names = ((got.body as { items?: { metadata: { name: string } }[] }).items ?? []).map((o) => o.metadata.name);
      if (e.count !== undefined && names.length !== e.count) return { message: `expected ${e.count} ${e.list.kind} objects, saw ${names.length}`, expected: e.count, seen: names };
      if (e.names !== undefined && JSON.stringify(names) !== JSON.stringify(e.names)) return { message: `the ${e.list.kind} list holds other names`, expected: e.names, seen: names };
      return null;
    }
    if ('request' in e) {
      const answer = await this.#send(e, { method: e.request.method, path: e.request.path, ...(e.request.headers === undefined ? {} : { headers: e.request.headers }), ...(e.request.body === undefined ? {} : { body: e.request.body }) });
      return checkAnswer(e, answer, false);
    }
    return this.#review(e);
  }

  /** A TokenReview, sent by the admin, must come out as expected. */
  async #review(e: TokenExpectation): Promise<Failure | null> {
    const apiVersion = await this.kinds.apiVersionOf('TokenReview');
    if (apiVersion === undefined) throw new ScenarioError('the server does not serve TokenReview');
    const c = await this.kinds.collection(apiVersion, 'TokenReview', undefined);
    if (typeof c === 'string') throw new ScenarioError(c);
    const got = await this.driver.request({ method: 'POST', path: c.path, body: { apiVersion, kind: 'TokenReview', spec: { token: e.token, ...(e.audiences === undefined ? {} : { audiences: e.audiences }) } } });
    if (got.status !== 201) return { message: `the TokenReview was not answered: ${describeAnswer(got)}`, seen: got.body };
    const status = ((got.body as { status?: Record<string, unknown> }).status ?? {}) as { authenticated?: boolean; user?: unknown; error?: string; audiences?: string[] };
    if ((status.authenticated ?? false) !== e.authenticated) return { message: `expected the token to be ${e.authenticated ? '' : 'not '}authenticated${status.error === undefined ? '' : `; the review says: ${status.error}`}`, expected: e.authenticated, seen: status };
    if (e.error !== undefined && status.error !== e.error) return { message: 'the review gave another error', expected: e.error, seen: status.error };
    if (e.user !== undefined) {
      const m = matchShape(e.user, status.user);
      if (m !== null) return { message: `status.user.${m.path}: ${m.missing === true ? 'missing' : 'differs'}`, expected: m.expected, seen: m.seen };
    }
    if (e.audiencesReturned !== undefined && JSON.stringify(status.audiences ?? []) !== JSON.stringify(e.audiencesReturned)) return { message: 'the review answered other audiences', expected: e.audiencesReturned, seen: status.audiences };
    return null;
  }

  /** Runs `f` for each item, checks each answer (a success unless `expect` says otherwise), captures from the last. */
  async #each<T>(step: StepCommon, items: readonly T[], f: (item: T) => Promise<Answer>): Promise<Failure | null> {
    let last: Answer | undefined;
    for (const item of items) {
      last = await f(item);
      const failure = checkAnswer(step.expect, last, true);
      if (failure !== null) return failure;
    }
    return last === undefined ? null : this.#capture(step, last);
  }

  #capture(step: StepCommon, answer: Answer): Failure | null {
    for (const [name, path] of Object.entries(step.capture ?? {})) {
      if (typeof path !== 'string') continue;
      const value = this.#read(answer.body, path);
      if (!value.found) return { message: `capture ${name}: the answer has no ${path}`, seen: answer.body };
      this.#captured.set(name, value.value);
    }
    return null;
  }

  #read(body: unknown, path: string): { found: boolean; value?: unknown } {
    const segments = parseFieldPath(path);
    if (typeof segments === 'string') throw new ScenarioError(segments);
    return readFieldPath(body, segments);
  }

  async #write(step: Step, kind: 'create' | 'apply' | 'update', m: Manifest, fieldManager: string | undefined): Promise<Answer> {
    const c = await this.kinds.collection(m.apiVersion, m.kind, m.metadata.namespace);
    if (typeof c === 'string') throw new ScenarioError(c);
    const body = c.namespaced && m.metadata.namespace === undefined ? { ...m, metadata: { ...m.metadata, namespace: 'default' } } : m;
    if (kind === 'create') return this.#send(step, { method: 'POST', path: c.path, body });
    const path = `${c.path}/${encodeURIComponent(m.metadata.name ?? '')}`;
    if (kind === 'update') return this.#send(step, { method: 'PUT', path, body });
    const manager = encodeURIComponent(fieldManager ?? 'platform-sim-scenario');
    return this.#send(step, { method: 'PATCH', path: `${path}?fieldManager=${manager}&force=true`, headers: { 'content-type': patchTypes['apply']! }, body: JSON.stringify(body) });
  }

  async #decide(step: Step, kind: 'approve' | 'deny', d: { name: string; reason?: string; message?: string }): Promise<Answer> {
    const apiVersion = await this.kinds.apiVersionOf('CertificateSigningRequest');
    if (apiVersion === undefined) throw new ScenarioError('the server does not serve CertificateSigningRequest');
    const path = await this.kinds.objectPath({ apiVersion, kind: 'CertificateSigningRequest', name: d.name });
    const got = await this.#send(step, { method: 'GET', path });
    if (got.status !== 200) return got;
    const csr = got.body as { status?: { conditions?: unknown[] } };
    const now = await this.driver.now();
    // As kubectl certificate approve / deny: a condition added to the list, written to /approval.
    const condition = {
      type: kind === 'approve' ? 'Approved' : 'Denied',
      status: 'True',
      reason: d.reason ?? (kind === 'approve' ? 'KubectlApprove' : 'KubectlDeny'),
      message: d.message ?? `This CSR was ${kind === 'approve' ? 'approved' : 'denied'} by kubectl certificate ${kind}.`,
      ...(now === undefined ? {} : { lastUpdateTime: now }),
    };
    const updated = { ...csr, status: { ...csr.status, conditions: [...(csr.status?.conditions ?? []), condition] } };
    return this.#send(step, { method: 'PUT', path: `${path}/approval`, body: updated });
  }

  #get(ref: ObjectRef): Promise<Answer> {
    return this.kinds.objectPath(ref).then((path) => this.driver.request({ method: 'GET', path }));
  }

  /** Sends a request with the step's credentials: `as` by impersonation (so in process and over HTTP agree), a token, or a certificate. */
  async #send(creds: Credentials, req: DriverRequest): Promise<Answer> {
    const headers: Record<string, string | readonly string[]> = { ...req.headers };
    if (creds.as !== undefined) {
      headers['impersonate-user'] = creds.as.user;
      if (creds.as.uid !== undefined) headers['impersonate-uid'] = creds.as.uid;
      if (creds.as.groups !== undefined && creds.as.groups.length > 0) headers['impersonate-group'] = creds.as.groups;
      for (const [k, vs] of Object.entries(creds.as.extra ?? {})) headers[`impersonate-extra-${encodeURIComponent(k)}`] = vs;
    }
    if (creds.token !== undefined) headers['authorization'] = `Bearer ${creds.token}`;
    const certificate = creds.clientCertificate === undefined ? undefined : pemOf(creds.clientCertificate);
    const answer = await this.driver.request({ ...req, headers, ...(certificate === undefined ? {} : { clientCertificate: certificate }) });
    this.#noteToken(req, answer);
    return answer;
  }

  /** A TokenRequest answered: its validity window, for reports. */
  #noteToken(req: DriverRequest, a: Answer): void {
    const body = a.body as { kind?: string; spec?: { audiences?: string[]; boundObjectRef?: { kind: string; name: string } }; status?: { expirationTimestamp?: string } } | undefined;
    if (a.status !== 201 || body?.kind !== 'TokenRequest' || body.status?.expirationTimestamp === undefined || this.at === undefined) return;
    const account = /\/namespaces\/([^/]+)\/serviceaccounts\/([^/]+)\/token/.exec(req.path);
    this.tokens.push({
      step: this.step,
      account: account === null ? req.path : `${account[1]}/${account[2]}`,
      issuedAt: this.at,
      expires: body.status.expirationTimestamp,
      audiences: body.spec?.audiences ?? [],
      ...(body.spec?.boundObjectRef === undefined ? {} : { boundTo: `${body.spec.boundObjectRef.kind} ${body.spec.boundObjectRef.name}` }),
    });
  }

  /** Every `${name}` in the step's strings replaced by the captured value (a string that is only a reference keeps the value's type). */
  #substitute(v: unknown): unknown {
    if (typeof v === 'string') {
      const whole = /^\$\{([^}]*)\}$/.exec(v);
      if (whole !== null) return this.#value(whole[1]!);
      return v.replace(/\$\{([^}]*)\}/g, (_, name: string) => {
        const x = this.#value(name);
        return typeof x === 'string' ? x : JSON.stringify(x);
      });
    }
    if (Array.isArray(v)) return v.map((x) => this.#substitute(x));
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.#substitute(x)]));
    return v;
  }

  #value(name: string): unknown {
    if (!this.#captured.has(name)) throw new ScenarioError(`\${${name}} was not captured`);
    return this.#captured.get(name);
  }
}

const patchTypes: Record<string, string> = {
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  json: 'application/json-patch+json',
  apply: 'application/apply-patch+yaml',
};

/** Base64 of a text (a PEM request for `spec.request`), without Buffer: this room also runs in browsers. */
function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** A certificate as PEM: given as PEM, or base64 of PEM as a CSR's `status.certificate` holds it. */
function pemOf(text: string): string {
  if (text.trimStart().startsWith('-----BEGIN')) return text;
  try {
    const bin = atob(text.replace(/\s+/g, ''));
    return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
  } catch {
    throw new ScenarioError('clientCertificate is neither PEM nor base64 of PEM');
  }
}

/** `422 Invalid: …`: an answer in a few words. */
function describeAnswer(a: Answer): string {
  const b = a.body as { reason?: string; message?: string } | undefined;
  return typeof b === 'object' && b !== null && b.message !== undefined ? `${a.status} ${b.reason ?? ''}: ${b.message}` : String(a.status);
}

/** Checks an answer; `mustSucceed`: with no expectation (or one without a status or reason), a 2xx is required. */
export function checkAnswer(e: AnswerExpectation | undefined, a: Answer, mustSucceed: boolean): Failure | null {
  const body = a.body as { reason?: string; message?: string };
  const wantsFailure = e?.status !== undefined || e?.reason !== undefined;
  if (e?.status !== undefined && a.status !== e.status) return { message: `expected status ${e.status}, saw ${describeAnswer(a)}`, expected: e.status, seen: a.body };
  if (!wantsFailure && (mustSucceed || e !== undefined) && (a.status < 200 || a.status > 299)) return { message: `expected success, saw ${describeAnswer(a)}`, seen: a.body };
  if (e === undefined) return null;
  if (e.reason !== undefined && body?.reason !== e.reason) return { message: `expected reason ${e.reason}, saw ${describeAnswer(a)}`, expected: e.reason, seen: body?.reason };
  if (e.message !== undefined && body?.message !== e.message) return { message: 'the message differs', expected: e.message, seen: body?.message };
  if (e.messageContains !== undefined && !(body?.message ?? '').includes(e.messageContains)) return { message: `the message does not contain the expected text`, expected: e.messageContains, seen: body?.message };
  if (e.warnings !== undefined) {
    const raw = a.headers['warning'];
    const seen = (raw === undefined ? [] : typeof raw === 'string' ? [raw] : raw).map((w) => /^\d{3} \S+ "(.*)"$/.exec(w)?.[1]?.replace(/\\"/g, '"') ?? w);
    const missing = e.warnings.find((w) => !seen.includes(w));
    if (missing !== undefined) return { message: 'a warning is missing', expected: missing, seen };
  }
  return checkShape(e, a.body);
}

function checkShape(e: { readonly matches?: unknown; readonly fields?: readonly FieldCheck[] }, body: unknown): Failure | null {
  if (e.matches !== undefined) {
    const m = matchShape(e.matches, body);
    if (m !== null) return { message: `${m.path}: ${m.missing === true ? 'missing' : 'differs'}`, expected: m.expected, seen: m.seen };
  }
  for (const f of e.fields ?? []) {
    const segments = parseFieldPath(f.path);
    if (typeof segments === 'string') throw new ScenarioError(segments);
    const got = readFieldPath(body, segments);
    if (f.absent === true && got.found) return { message: `${f.path} should be absent`, seen: got.value };
    if (f.exists === true && !got.found) return { message: `${f.path} should exist` };
    if ('equals' in f) {
      if (!got.found) return { message: `${f.path} is missing`, expected: f.equals };
      if (JSON.stringify(got.value) !== JSON.stringify(f.equals)) return { message: `${f.path} differs`, expected: f.equals, seen: got.value };
    }
    if ('notEquals' in f) {
      if (!got.found) return { message: `${f.path} is missing` };
      if (JSON.stringify(got.value) === JSON.stringify(f.notEquals)) return { message: `${f.path} should differ from ${JSON.stringify(f.notEquals)}`, seen: got.value };
    }
  }
  return null;
}
