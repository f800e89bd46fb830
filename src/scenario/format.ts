/**
 * The scenario format, as TypeScript types: the same structure a YAML scenario file holds
 * (scenario.schema.json describes it for editors and for the loader's checks), so a test can
 * build a scenario in code and run it with `runScenario`. A scenario drives one simulation step by
 * step and says what must be seen; strings may name values captured by earlier steps as
 * `${name}`.
 */
import type { FaultRule } from '../sim/faults.ts';
import type { AsIdentity } from '../edges/simulation/authenticate.ts';

export interface Scenario {
  /** Unique within a run: `--only` selects by it. */
  readonly name: string;
  /** The lesson, in a sentence or two. */
  readonly description?: string;
  readonly seed?: number;
  readonly startTime?: string;
  /** Simulation options that fit in a file (see docs/scenarios.md); a target server must be started with the same. */
  readonly options?: ScenarioOptions;
  readonly steps: readonly Step[];
}

export interface ScenarioOptions {
  readonly groupDomain?: 'platform.io' | 'k8s.io';
  readonly nodeAgent?: boolean;
  readonly podReadyAfter?: string;
  readonly compactionInterval?: string;
  readonly anonymousAuth?: boolean;
  readonly users?: readonly { readonly token: string; readonly user: string; readonly uid?: string; readonly groups?: readonly string[] }[];
  readonly apiAudiences?: readonly string[];
  readonly tokenIssuer?: string;
  readonly serviceAccountMaxTokenExpiration?: string;
  readonly serviceAccountExtendTokenExpiration?: boolean;
  readonly clusterSigningDuration?: string;
  readonly featureGates?: Readonly<Record<string, boolean>>;
  /** The invariant checkers after every step: a broken invariant fails the step that broke it. */
  readonly checkInvariants?: boolean;
  /** `seeded`: the controllers' order in each settle round drawn from the seed. */
  readonly schedule?: 'fixed' | 'seeded';
}

/** Any Kubernetes object written out: apiVersion, kind, metadata and the rest. */
export type Manifest = { readonly apiVersion: string; readonly kind: string; readonly metadata: { readonly name?: string; readonly generateName?: string; readonly namespace?: string } } & Record<string, unknown>;

/** An object by kind and name (`namespace` defaults to `default` for namespaced kinds). */
export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

/** Who sends a request: an already-authenticated identity, a bearer token, or a client certificate. */
export interface Credentials {
  readonly as?: AsIdentity;
  /** A bearer token (usually `${captured}`). */
  readonly token?: string;
  /** A PEM certificate chain presented as over mTLS (usually `${captured}`); in-process only. */
  readonly clientCertificate?: string;
}

/** What an answer must be: its code, reason, message, and shape. */
export interface AnswerExpectation {
  readonly status?: number;
  readonly reason?: string;
  readonly message?: string;
  readonly messageContains?: string;
  /** A partial shape of the body: every field given must be there with that value. */
  readonly matches?: unknown;
  readonly fields?: readonly FieldCheck[];
  /** Each of these must be among the answer's `Warning` header texts. */
  readonly warnings?: readonly string[];
}

/**
 * A field path: dots between names, `[2]` an index, `[type=Ready]` the first list element with that
 * field, `["app.platform.io/name"]` a name with dots.
 */
export interface FieldCheck {
  readonly path: string;
  readonly equals?: unknown;
  /** The field is there with any other value (a replaced pod's uid). */
  readonly notEquals?: unknown;
  readonly exists?: boolean;
  readonly absent?: boolean;
}

export type Expectation =
  | ({ readonly object: ObjectRef } & ObjectExpectation)
  | { readonly list: ObjectRef & { readonly labelSelector?: string; readonly fieldSelector?: string }; readonly count?: number; readonly names?: readonly string[] }
  | { readonly absent: ObjectRef }
  | ({ readonly request: RequestSpec } & AnswerExpectation & Credentials)
  | TokenExpectation;

export interface ObjectExpectation {
  readonly matches?: unknown;
  readonly fields?: readonly FieldCheck[];
}

/** A TokenReview of `token` (sent by the admin) must come out like this. */
export interface TokenExpectation {
  readonly token: string;
  readonly audiences?: readonly string[];
  readonly authenticated: boolean;
  /** A partial shape of `status.user`. */
  readonly user?: unknown;
  readonly error?: string;
  /** The audiences the review answers with. */
  readonly audiencesReturned?: readonly string[];
}

export interface RequestSpec {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export type PatchType = 'merge' | 'strategic' | 'json' | 'apply';

export interface StepCommon extends Credentials {
  /** A label for the step in output and reports. */
  readonly name?: string;
  /** For a step that sends requests: what the answer must be (default: a success). */
  readonly expect?: AnswerExpectation;
  /** For a step that sends a request: name → field path of the answer's body. */
  readonly capture?: Readonly<Record<string, string>>;
}

/** A step: an action with its common fields, or a standalone check or capture (which has no answer to check or capture from). */
export type Step = (StepCommon & ActionStep) | (StandaloneCommon & { readonly expect: Expectation }) | (StandaloneCommon & { readonly capture: Readonly<Record<string, { readonly object: ObjectRef; readonly path: string }>> });

type StandaloneCommon = Omit<StepCommon, 'expect' | 'capture'>;

type ActionStep =
  | { readonly create: Manifest | readonly Manifest[] }
  | { readonly apply: Manifest | readonly Manifest[]; readonly fieldManager?: string }
  | { readonly update: Manifest | readonly Manifest[] }
  | { readonly patch: ObjectRef & { readonly type?: PatchType; readonly subresource?: string; readonly patch: unknown } }
  | { readonly delete: (ObjectRef & { readonly propagationPolicy?: 'Foreground' | 'Background' | 'Orphan'; readonly gracePeriodSeconds?: number }) | readonly ObjectRef[] }
  | { readonly request: RequestSpec }
  | { readonly approve: CsrDecision }
  | { readonly deny: CsrDecision }
  | { readonly advance: string }
  | { readonly settle: true }
  | { readonly fault: readonly FaultRule[] | 'clear' }
  | { readonly snapshot: string }
  | { readonly restore: string }
  | { readonly certificateRequest: CertificateRequestStep };

export interface CsrDecision {
  readonly name: string;
  readonly reason?: string;
  readonly message?: string;
}

/** Makes a key and a certificate request for it; captures `<as>.request` (base64 PEM, for `spec.request`) and `<as>.key`. */
export interface CertificateRequestStep {
  readonly as: string;
  readonly commonName: string;
  readonly organizations?: readonly string[];
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
}

/** The step kinds, in the order docs/scenarios.md lists them. */
export const stepKinds = ['create', 'apply', 'update', 'patch', 'delete', 'request', 'approve', 'deny', 'advance', 'settle', 'expect', 'capture', 'fault', 'snapshot', 'restore', 'certificateRequest'] as const;
export type StepKind = (typeof stepKinds)[number];

/** What a step does: its one step-kind key; with none, a standalone `capture` or `expect`. */
export function kindOf(step: Step): StepKind {
  for (const k of stepKinds) if (k !== 'expect' && k !== 'capture' && k in step) return k;
  return 'capture' in step ? 'capture' : 'expect';
}
