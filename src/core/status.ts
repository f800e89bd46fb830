/**
 * `Status` bodies with the real reasons, codes and message templates of apimachinery
 * (pkg/api/errors/errors.go). Failures are data: handlers return an `ApiError`, they never throw.
 * Field order matches what kube-apiserver emits.
 */
import { aggregateFieldErrors, fieldErrorBody, type FieldError } from './fieldErrors.ts';

export type StatusReason =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Invalid'
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'UnsupportedMediaType'
  | 'Expired'
  | 'Gone'
  | 'RequestEntityTooLarge'
  | 'TooManyRequests'
  | 'Timeout'
  | 'InternalError'
  | 'ServiceUnavailable'
  | '';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: { continue?: string };
  status?: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code?: number;
}

/** A failed API call: the HTTP code is `status.code`. */
export interface ApiError {
  readonly kind: 'ApiError';
  readonly status: Status;
  /** Extra response headers (Retry-After, Allow). */
  readonly headers?: Readonly<Record<string, string>>;
}

export function isApiError(v: unknown): v is ApiError {
  return typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'ApiError';
}

/** A resource named for messages: `serviceaccounts` or `statefulsets.apps`. */
export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}
export interface GroupKind {
  readonly group: string;
  readonly kind: string;
}

export function qualifiedResource(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}
export function qualifiedKind(gk: GroupKind): string {
  return gk.group === '' ? gk.kind : `${gk.kind}.${gk.group}`;
}

function failure(code: number, reason: StatusReason, message: string, details?: StatusDetails, headers?: Record<string, string>): ApiError {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure' };
  if (message !== '') status.message = message;
  if (reason !== '') status.reason = reason;
  if (details !== undefined) status.details = details;
  status.code = code;
  return headers === undefined ? { kind: 'ApiError', status } : { kind: 'ApiError', status, headers };
}

function resourceDetails(gr: GroupResource, name: string): StatusDetails {
  const d: StatusDetails = {};
  if (name !== '') d.name = name;
  if (gr.group !== '') d.group = gr.group;
  d.kind = gr.resource;
  return d;
}

export const errors = {
  notFound(gr: GroupResource, name: string): ApiError {
    return failure(404, 'NotFound', `${qualifiedResource(gr)} "${name}" not found`, resourceDetails(gr, name));
  },
  /** Routing 404 inside a served group-version (generic response path: empty details). */
  routeNotFound(): ApiError {
    return failure(404, 'NotFound', 'the server could not find the requested resource', {});
  },
  alreadyExists(gr: GroupResource, name: string): ApiError {
    return failure(409, 'AlreadyExists', `${qualifiedResource(gr)} "${name}" already exists`, resourceDetails(gr, name));
  },
  alreadyExistsTerminating(gr: GroupResource, name: string): ApiError {
    return failure(409, 'AlreadyExists', `object is being deleted: ${qualifiedResource(gr)} "${name}" already exists`, resourceDetails(gr, name));
  },
  generateNameExhausted(gr: GroupResource, name: string): ApiError {
    const d = resourceDetails(gr, name);
    d.retryAfterSeconds = 1;
    return failure(
      409,
      'AlreadyExists',
      `${qualifiedResource(gr)} "${name}" already exists, the server was not able to generate a unique name for the object`,
      d,
      { 'retry-after': '1' },
    );
  },
  conflict(gr: GroupResource, name: string, why: string): ApiError {
    return failure(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(gr)} "${name}": ${why}`, resourceDetails(gr, name));
  },
  optimisticLock(gr: GroupResource, name: string): ApiError {
    return errors.conflict(gr, name, 'the object has been modified; please apply your changes to the latest version and try again');
  },
  /** Delete preconditions are checked early and name the Kind, not the resource. */
  preconditionConflict(gk: GroupKind, name: string, why: string): ApiError {
    const d: StatusDetails = { name };
    if (gk.group !== '') d.group = gk.group;
    d.kind = gk.kind;
    return failure(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedKind(gk)} "${name}": ${why}`, d);
  },
  invalid(gk: GroupKind, name: string, fieldErrors: readonly FieldError[]): ApiError {
    const d: StatusDetails = {};
    if (name !== '') d.name = name;
    if (gk.group !== '') d.group = gk.group;
    if (gk.kind !== '') d.kind = gk.kind;
    d.causes = fieldErrors.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field }));
    const prefix = gk.kind === '' ? '' : qualifiedKind(gk);
    return failure(422, 'Invalid', `${prefix} "${name}" is invalid: ${aggregateFieldErrors(fieldErrors)}`, d);
  },
  /** The generic 422 of a failed JSON-patch operation. */
  invalidGeneric(): ApiError {
    return failure(422, 'Invalid', 'the server rejected our request due to an error in our request', {});
  },
  badRequest(message: string): ApiError {
    return failure(400, 'BadRequest', message);
  },
  unauthorized(message = 'Unauthorized'): ApiError {
    return failure(401, 'Unauthorized', message);
  },
  forbidden(gr: GroupResource | null, name: string, why: string): ApiError {
    if (gr === null) return failure(403, 'Forbidden', `forbidden: ${why}`, {});
    const target = name === '' ? qualifiedResource(gr) : `${qualifiedResource(gr)} "${name}"`;
    return failure(403, 'Forbidden', `${target} is forbidden: ${why}`, resourceDetails(gr, name));
  },
  methodNotAllowed(allow: readonly string[]): ApiError {
    return failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {}, { allow: allow.join(', ') });
  },
  verbNotSupported(gr: GroupResource, verb: string): ApiError {
    const d: StatusDetails = {};
    if (gr.group !== '') d.group = gr.group;
    d.kind = gr.resource;
    return failure(405, 'MethodNotAllowed', `${verb} is not supported on resources of kind "${qualifiedResource(gr)}"`, d);
  },
  notAcceptable(accepted: readonly string[]): ApiError {
    return failure(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
  },
  unsupportedMediaType(accepted: readonly string[]): ApiError {
    return failure(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`);
  },
  unsupportedPatchType(): ApiError {
    return failure(415, 'UnsupportedMediaType', '415: Unsupported Media Type', {});
  },
  entityTooLarge(message: string): ApiError {
    return failure(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);
  },
  /** A request body over the server's limit. */
  requestBodyTooLarge(limitBytes: number): ApiError {
    return errors.entityTooLarge(`limit is ${limitBytes}`);
  },
  expired(message: string, continueToken?: string): ApiError {
    const e = failure(410, 'Expired', message);
    if (continueToken !== undefined) e.status.metadata.continue = continueToken;
    return e;
  },
  tooLargeResourceVersion(requested: number, current: number): ApiError {
    return failure(
      504,
      'Timeout',
      `Timeout: Too large resource version: ${requested}, current: ${current}`,
      { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
      { 'retry-after': '1' },
    );
  },
  tooManyRequests(retryAfterSeconds: number): ApiError {
    return failure(429, 'TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds }, {
      'retry-after': String(retryAfterSeconds),
    });
  },
  internal(message: string): ApiError {
    return failure(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
  },
  /** A 500 for our own bug caught at the edge: nothing in it is about the request, so no causes. */
  internalBug(message: string): ApiError {
    return failure(500, 'InternalError', `Internal error occurred: ${message}`);
  },
  /** The generic handler timeout (504 Timeout). */
  handlerTimeout(): ApiError {
    return failure(504, 'Timeout', 'the server was unable to return a response in the time allotted, but may still be processing the request', {});
  },
  serviceUnavailable(message: string, retryAfterSeconds: number): ApiError {
    return failure(503, 'ServiceUnavailable', message, { retryAfterSeconds }, { 'retry-after': String(retryAfterSeconds) });
  },
  /** A 500 with no reason, for errors the real server reports that way (e.g. SMP merge-key errors). */
  unknown(code: number, message: string): ApiError {
    return failure(code, '', message);
  },
};

export function successStatus(details: StatusDetails): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
}
