/**
 * A resource type: everything the generic machinery needs to serve one kind (Kubernetes'
 * registry Store + strategy, as data and small pure functions). Every kind has the same shape.
 */
import type { FieldError } from '../core/fieldErrors.ts';
import type { Instant } from '../core/duration.ts';
import type { StructSchema } from '../api/schema.ts';
import type { KubeObject } from '../api/meta.ts';
import type { Names } from '../api/names.ts';
import type { UserInfo } from '../api/userInfo.ts';
import type { CryptoFacts } from '../api/crypto.ts';

export type Verb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch';

/** What a strategy may know about the request besides the objects. */
export interface StrategyContext {
  readonly now: Instant;
  readonly names: Names;
  /** Reads other objects (e.g. admission-like checks); never writes. */
  readonly lookup: (resource: string, namespace: string, name: string) => KubeObject | undefined;
  /** Who the write is for (after impersonation): CSRs record it in their spec. */
  readonly user: UserInfo;
  /** Signatures, verifications and parsed certificates (see api/crypto.ts). */
  readonly crypto: CryptoFacts;
  /** Whether the requesting user may do this (RBAC), for admission plugins' own checks. */
  readonly may: (check: AccessCheck) => boolean;
}

/** A cluster-scoped resource authorization question an admission plugin asks. */
export interface AccessCheck {
  readonly verb: string;
  readonly apiGroup: string;
  readonly resource: string;
  readonly name: string;
}

export interface Strategy {
  /** Clears what a client may not set on create (status, system fields) and sets defaults. */
  prepareForCreate(obj: KubeObject, ctx: StrategyContext): KubeObject;
  validate(obj: KubeObject, ctx: StrategyContext): FieldError[];
  warningsOnCreate(obj: KubeObject, ctx: StrategyContext): string[];
  /** Keeps what this endpoint may not change (status on the main resource, spec on /status). */
  prepareForUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): KubeObject;
  validateUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[];
  warningsOnUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): string[];
}

/**
 * An admission check on create: the object to store, or the reason for a 403
 * `<resource> "<name>" is forbidden: <message>`.
 */
export type Admission = (obj: KubeObject, ctx: StrategyContext) => { readonly ok: true; readonly object: KubeObject } | { readonly ok: false; readonly message: string };

export interface FieldSelectorFacts {
  /** Supported fields; `custom` kinds answer `field label not supported: <f>` for others. */
  readonly fields: readonly string[];
  readonly custom: boolean;
  readonly extract: (obj: KubeObject) => Record<string, string>;
}

export interface TableColumn {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'date' | 'number' | 'boolean';
  readonly format: string;
  readonly description: string;
  readonly priority: number;
  readonly cell: (obj: KubeObject, now: Instant) => string | number | boolean;
}

export interface Subresource {
  readonly name: string;
  readonly kind: string;
  readonly group?: string;
  readonly version?: string;
  readonly verbs: readonly Verb[];
  /** For status-like subresources: the strategy of writes through it. */
  readonly strategy?: Strategy;
  /** Schema of the subresource's own kind (TokenRequest), when it is not the parent's. */
  readonly schema?: StructSchema;
  /**
   * What a write through this subresource may change: the written object with everything else
   * taken from the stored one. Default (status-like): status and metadata but owner references
   * and the deletion timestamp.
   */
  readonly confine?: (obj: KubeObject, old: KubeObject) => KubeObject;
}

export interface ResourceType {
  /** Stable storage id, independent of the group domain: `core/serviceaccounts`. */
  readonly id: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly singular: string;
  readonly kind: string;
  readonly listKind: string;
  readonly namespaced: boolean;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly verbs: readonly Verb[];
  readonly schema: StructSchema;
  readonly nameRule: 'subdomain' | 'label' | 'path';
  readonly strategy: Strategy;
  readonly subresources: readonly Subresource[];
  readonly fieldSelectors: FieldSelectorFacts;
  /** DELETE answers the object (ServiceAccount, Pod) rather than a success Status. */
  readonly deleteReturnsObject: boolean;
  /** PUT without resourceVersion is allowed (last write wins). */
  readonly allowUnconditionalUpdate: boolean;
  /** Has a spec/status split: generation 1 on create, bumped on spec change. */
  readonly hasGeneration: boolean;
  /** Top-level fields that main-resource writes and apply reset (`status`). */
  readonly resetFields: readonly string[];
  readonly table?: readonly TableColumn[];
  /**
   * Graceful deletion (Pods): seconds to wait before the object may go, or null to delete at
   * once. `requested` is DeleteOptions.gracePeriodSeconds when given.
   */
  readonly gracefulDeletion?: (obj: KubeObject, requested: number | undefined) => number | null;
  /** Finalizers kept outside metadata (Namespace `spec.finalizers`): deletion waits for them too. */
  readonly specFinalizers?: (obj: KubeObject) => readonly string[];
  /** What changes when deletion starts (a Namespace turns `Terminating`). */
  readonly onDeletionStart?: (obj: KubeObject) => KubeObject;
  /** Mutating admission on create: after defaults, before validation (ServiceAccount admission of pods). */
  readonly admitCreate?: Admission;
  /** Validating admission on create: after validation (CertificateSubjectRestriction). */
  readonly validateCreateAdmission?: Admission;
  /** Validating admission on update, told the subresource written through (CertificateApproval). */
  readonly validateUpdateAdmission?: (obj: KubeObject, old: KubeObject, subresource: string, ctx: StrategyContext) => { readonly ok: true } | { readonly ok: false; readonly message: string };
  /** Create-only request kinds that are answered, never stored (TokenReview, SelfSubjectReview). */
  readonly virtual?: boolean;
}

/** The registry as the store sees it: resource types by storage id and by kind. */
export interface RegistryView {
  byId(id: string): ResourceType | undefined;
  byGroupKind(group: string, kind: string): ResourceType | undefined;
}

export function groupVersionOf(rt: ResourceType): string {
  return rt.group === '' ? rt.version : `${rt.group}/${rt.version}`;
}
