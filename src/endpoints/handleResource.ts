/**
 * The resource pipeline after routing, in kube-apiserver's order: output negotiation (406),
 * query options (400/422), body size (413), content type (415), decoding (400), then the store
 * operation. Returns the new world, the response, and for watches the watch to open.
 */
import type { KubeObject } from '../api/meta.ts';
import { errors } from '../core/status.ts';
import { limits } from '../core/limits.ts';
import { parseGroupVersion } from '../api/meta.ts';
import type { JsonObject, JsonValue } from '../core/json.ts';
import { create } from '../store/ops/create.ts';
import { deleteObject } from '../store/ops/delete.ts';
import { deleteCollection } from '../store/ops/deleteCollection.ts';
import { get, isExactList, list } from '../store/ops/read.ts';
import { getObject } from '../store/objects.ts';
import { patch } from '../store/ops/patch.ts';
import { update } from '../store/ops/update.ts';
import { contextWith, fail, type OpContext, type OpResult } from '../store/ops/context.ts';
import type { World } from '../store/world.ts';
import { decodeBody, decodePatchJson } from '../store/decode/decodeBody.ts';
import { parseYamlDocument } from '../store/decode/parseYaml.ts';
import { toTable } from './encode.ts';
import { parseListQuery, type ListQuery } from './listQuery.ts';
import { bodyFormatOf, negotiateOutput, patchFormatOf, readMediaTypes, servedMediaTypes } from './negotiate.ts';
import { dryRunOf, fieldManagerOf, fieldValidationOf, isPretty, parseBool, tableOptionsError, type OptionsKind } from './query.ts';
import { respond, respondError, type Rendering } from './respond.ts';
import type { ResourceRoute } from './route.ts';
import { parseDeleteOptions } from './deleteOptions.ts';
import { bodyBytes, bodyExceeds, bodyText, header, type ApiRequest, type ApiResponse, type AuthenticatedRequest } from './types.ts';
import { isAllowed, type ApiEnv } from './env.ts';
import { staleReadAt, type StaleReadRequest } from './staleRead.ts';
import type { AccessCheck } from '../registry/types.ts';
import { createVirtual, isVirtualCreate } from './identity/virtualCreate.ts';
import { getScale, patchScale, putScale } from './scale.ts';
import { bindPod } from '../store/ops/bind.ts';
import { allowedMethods, verbOf } from './verbs.ts';
import { apiVersionOf } from '../store/ops/typeMeta.ts';
import { storageRefusal } from '../store/storageLimits.ts';
import { refuseRbacWrite } from '../auth/rbac/writeGuard.ts';

export interface WatchOpen {
  readonly route: ResourceRoute;
  readonly query: ListQuery;
  readonly rendering: Rendering;
}

export interface Handled {
  readonly world: World;
  readonly response: ApiResponse;
  readonly watch?: WatchOpen | undefined;
  /** Who the request ran as, when it got that far (for the trace). */
  readonly user?: string | undefined;
  /**
   * An authorized call of a `/sim/v1` control endpoint: the simulation answers it (sim/control.ts),
   * the API only authenticated and authorized it, as any non-resource path.
   */
  readonly control?: ControlCall | undefined;
}

export interface ControlCall {
  readonly method: string;
  /** Path without the query. */
  readonly path: string;
  readonly body: string;
}

export function handleResource(world: World, env: ApiEnv, req: AuthenticatedRequest, r: ResourceRoute, params: URLSearchParams): Handled {
  const table = env.table;
  const watch = parseBool(params.get('watch')) === true;
  const verb = verbOf(req.method, r, watch);
  const pretty = isPretty(params, header(req.headers, 'user-agent') ?? '');
  const fallback: Rendering = { output: { type: 'json' }, pretty };
  if (verb === null) return { world, response: respondError(errors.methodNotAllowed(allowedMethods(r)), fallback) };
  const output = negotiateOutput(header(req.headers, 'accept'), verb === 'get' || verb === 'list' || verb === 'watch', params.get('includeObject'));
  if (output === null) return { world, response: respondError(errors.notAcceptable(servedMediaTypes), { output: null, pretty }) };
  const rendering: Rendering = { output, pretty };
  if (bodyExceeds(req, limits.requestBodyBytesMax)) {
    return { world, response: respondError(errors.requestBodyTooLarge(limits.requestBodyBytesMax), rendering) };
  }
  const may = (c: AccessCheck): boolean =>
    isAllowed(world, env, req.user, { resourceRequest: true, verb: c.verb, apiGroup: c.apiGroup, apiVersion: '*', namespace: '', resource: c.resource, subresource: '', name: c.name, path: '' }).allowed;
  const base: OpContext = { world, rt: r.rt, registry: table, names: table.names, dryRun: false, fieldManager: '', subresource: r.subresource, user: req.user, crypto: env.crypto, may };
  const namespace = r.namespace ?? '';
  const name = r.name ?? '';
  // As the real server, the TableOptions are checked when the answer is converted to a Table:
  // after the read succeeded.
  const tableError = output.type === 'table' ? tableOptionsError(params) : null;
  // `after`: the world a refused read leaves (a staleRead fault's count moved it).
  const done = (result: OpResult, after: World = world): Handled => finish(after, r, tableError !== null && result.ok ? fail(tableError, result.warnings) : result, rendering);
  const readOf = (verb: 'get' | 'list'): StaleReadRequest => ({ verb, resource: r.subresource === '' ? r.rt.resource : `${r.rt.resource}/${r.subresource}`, namespace, name, user: req.user.username });
  if (r.subresource === 'scale') return handleScale(world, req, r, params, base, rendering, verb, done);
  switch (verb) {
    case 'get': {
      // As a list: a resourceVersion newer than the store is refused at once (504), "0" means any.
      const rvText = params.get('resourceVersion');
      if (rvText !== null && rvText !== '' && !/^\d+$/.test(rvText)) return { world, response: respondError(errors.badRequest(`invalid resource version: strconv.ParseUint: parsing ${JSON.stringify(rvText)}: invalid syntax`), rendering) };
      const rv = rvText === null || rvText === '' || rvText === '0' ? undefined : Number(rvText);
      const read = staleReadAt(world, env, { ...readOf('get'), object: () => getObject(world, r.rt.id, namespace, name) });
      return done(get(contextWith(base, { world: read.world }), namespace, name, rv, read.at), read.world);
    }
    case 'list':
    case 'watch': {
      const q = parseListQuery(r.rt, params);
      if (!q.ok) return { world, response: respondError(q.error, rendering) };
      if (verb === 'watch' && tableError !== null) return { world, response: respondError(tableError, rendering) };
      if (verb === 'watch') return { world, response: respond(200, null, rendering), watch: { route: r, query: q.value, rendering } };
      if (isExactList(q.value)) return done(list(base, r.namespace, q.value));
      const read = staleReadAt(world, env, readOf('list'));
      return done(list(contextWith(base, { world: read.world }), r.namespace, read.at === undefined ? q.value : { ...q.value, cacheRevision: read.at }), read.world);
    }
    case 'create':
    case 'update': {
      const kind: OptionsKind = verb === 'create' ? 'CreateOptions' : 'UpdateOptions';
      const opts = writeOptions(params, req, kind, false);
      if (!opts.ok) return { world, response: respondError(opts.error, rendering) };
      const format = bodyFormatOf(header(req.headers, 'content-type'));
      if (format === null) return { world, response: respondError(errors.unsupportedMediaType(readMediaTypes), rendering) };
      const target = bodyKindOf(r);
      // A JSON body given in-process as a value is decoded from it, without its text.
      const value = format === 'json' ? req.json : undefined;
      const bytes = format === 'protobuf' ? bodyBytes(req) : value !== undefined ? '' : bodyText(req);
      const decoded = decodeBody({ bytes, value, contentType: format, schema: target.schema, kind: target.kind, version: target.version, fieldValidation: opts.fieldValidation });
      if (!decoded.ok) return { world, response: respondError(decoded.error, rendering) };
      const typeErr = checkTypeMeta(target, decoded.object);
      if (typeErr !== null) return { world, response: respondError(typeErr, rendering) };
      if (verb === 'create' && r.subresource === 'binding') {
        const nsErr = checkNamespace(r, decoded.object);
        if (nsErr !== null) return { world, response: respondError(nsErr, rendering) };
        const binding = normalizeMetadata(decoded.object);
        if ((binding.metadata.name ?? '') !== name) return { world, response: respondError(errors.badRequest('name in URL does not match name in Binding object'), rendering) };
        return finish(world, r, withWarnings(bindPod(contextWith(base, { dryRun: opts.dryRun }), namespace, binding), decoded.warnings), rendering);
      }
      if (verb === 'create' && isVirtualCreate(r)) {
        const nsErr = checkNamespace(r, decoded.object);
        if (nsErr !== null) return { world, response: respondError(nsErr, rendering) };
        return finish(world, r, withWarnings(createVirtual(world, env, req.user, r, decoded.object), decoded.warnings), rendering);
      }
      const ctx = contextWith(base, { dryRun: opts.dryRun, fieldManager: opts.fieldManager });
      const obj = normalizeMetadata(decoded.object);
      // The RBAC storage's escalation check, before the store validates (auth/rbac/writeGuard.ts).
      const refused = refuseRbacWrite(world, table.names, req.user, { rt: r.rt, subresource: r.subresource, namespace, name }, verb, obj);
      if (refused !== null) return { world, response: respondError(refused, rendering, decoded.warnings) };
      const result = verb === 'create' ? create(ctx, obj, namespace) : update(ctx, obj, namespace, name);
      return withinStorageLimits(world, r, withWarnings(result, decoded.warnings), rendering);
    }
    case 'patch':
      return handlePatch(world, req, r, params, base, rendering);
    case 'delete':
    case 'deletecollection': {
      // deletecollection reads its ListOptions before its DeleteOptions; `dryRun` is one of the
      // DeleteOptions (deleteOptions.ts).
      const q = verb === 'deletecollection' ? parseListQuery(r.rt, params) : null;
      if (q !== null && !q.ok) return { world, response: respondError(q.error, rendering) };
      const del = parseDeleteOptions(params, bodyText(req));
      if (!del.ok) return { world, response: respondError(del.error, rendering) };
      const ctx = contextWith(base, { dryRun: del.dryRun });
      if (q === null) return done(deleteObject(ctx, namespace, name, del.options));
      return done(deleteCollection(ctx, r.namespace, q.value, del.options));
    }
  }
}

function handleScale(world: World, req: ApiRequest, r: ResourceRoute, params: URLSearchParams, base: OpContext, rendering: Rendering, verb: string, read: (result: OpResult) => Handled): Handled {
  const namespace = r.namespace ?? '';
  const name = r.name ?? '';
  const scaleRoute = { ...r, subresource: '' };
  if (verb === 'get') return read(getScale(base, namespace, name));
  const opts = writeOptions(params, req, verb === 'update' ? 'UpdateOptions' : 'PatchOptions', false);
  if (!opts.ok) return { world, response: respondError(opts.error, rendering) };
  const ctx = contextWith(base, { dryRun: opts.dryRun, fieldManager: opts.fieldManager });
  const result = verb === 'update' ? putScale(ctx, namespace, name, req.body ?? bodyText(req), header(req.headers, 'content-type'), opts.fieldValidation) : patchScale(ctx, namespace, name, bodyText(req), header(req.headers, 'content-type'));
  return finish(world, scaleRoute, result, rendering);
}

function withWarnings(result: OpResult, warnings: readonly string[]): OpResult {
  return warnings.length === 0 ? result : { ...result, warnings: [...warnings, ...result.warnings] };
}

/** A body without metadata still gets an (empty) metadata object. */
function normalizeMetadata(obj: JsonObject): KubeObject {
  const meta = obj['metadata'];
  return (typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? obj : { ...obj, metadata: {} }) as unknown as KubeObject;
}

/** The kind a write's body must be: the resource's own, or a subresource's (TokenRequest). */
interface BodyKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly schema: ResourceRoute['rt']['schema'];
}

function bodyKindOf(r: ResourceRoute): BodyKind {
  const sub = r.subresource === '' ? undefined : r.rt.subresources.find((x) => x.name === r.subresource);
  if (sub?.schema !== undefined) return { group: sub.group ?? r.rt.group, version: sub.version ?? r.rt.version, kind: sub.kind, schema: sub.schema };
  return { group: r.rt.group, version: r.rt.version, kind: r.rt.kind, schema: r.rt.schema };
}

function checkTypeMeta(target: BodyKind, obj: JsonObject): ReturnType<typeof errors.badRequest> | null {
  const expected = target.group === '' ? target.version : `${target.group}/${target.version}`;
  const av = obj['apiVersion'];
  if (typeof av === 'string' && av !== '') {
    const gv = parseGroupVersion(av);
    if (gv.group !== target.group || gv.version !== target.version) {
      return errors.badRequest(`the API version in the data (${av}) does not match the expected API version (${expected})`);
    }
  }
  const kind = obj['kind'];
  if (typeof kind === 'string' && kind !== '' && kind !== target.kind) {
    return errors.badRequest(`${kind} in version "${target.version}" cannot be handled as a ${target.kind}: no kind "${kind}" is registered for version "${expected}" in scheme "pkg/api/legacyscheme/scheme.go:30"`);
  }
  return null;
}

/** The generic handler's check that a body's namespace matches the URL's. */
function checkNamespace(r: ResourceRoute, obj: JsonObject): ReturnType<typeof errors.badRequest> | null {
  const meta = obj['metadata'];
  const ns = typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? meta['namespace'] : undefined;
  if (typeof ns === 'string' && ns !== '' && r.namespace !== null && r.namespace !== '' && ns !== r.namespace) {
    return errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  return null;
}

type WriteOpts = { ok: true; dryRun: boolean; fieldManager: string; fieldValidation: 'Ignore' | 'Warn' | 'Strict' } | { ok: false; error: ReturnType<typeof errors.badRequest> };

function writeOptions(params: URLSearchParams, req: ApiRequest, kind: OptionsKind, apply: boolean): WriteOpts {
  const dry = dryRunOf(params, kind);
  if (!dry.ok) return dry;
  const fm = fieldManagerOf(params, header(req.headers, 'user-agent') ?? '', kind, apply);
  if (!fm.ok) return fm;
  const fv = fieldValidationOf(params, kind);
  if (!fv.ok) return fv;
  return { ok: true, dryRun: dry.dryRun, fieldManager: fm.value, fieldValidation: fv.value };
}

function handlePatch(world: World, req: AuthenticatedRequest, r: ResourceRoute, params: URLSearchParams, base: OpContext, rendering: Rendering): Handled {
  const format = patchFormatOf(header(req.headers, 'content-type'));
  if (format === null) return { world, response: respondError(errors.unsupportedPatchType(), rendering) };
  const opts = writeOptions(params, req, 'PatchOptions', format === 'apply');
  if (!opts.ok) return { world, response: respondError(opts.error, rendering) };
  const forceText = params.get('force');
  if (forceText !== null && format !== 'apply') {
    return { world, response: respondError(errors.invalid({ group: 'meta.k8s.io', kind: 'PatchOptions' }, '', [{ type: 'FieldValueForbidden', field: 'force', detail: 'may not be specified for non-apply patch' }]), rendering) };
  }
  let patchValue: JsonValue;
  if (format === 'apply') {
    const parsed = parseYamlDocument(bodyText(req));
    if (!parsed.ok) return { world, response: respondError(errors.badRequest(`error decoding patch: ${parsed.message}`), rendering) };
    const applyErr = checkApplyBody(r, parsed.value);
    if (applyErr !== null) return { world, response: respondError(applyErr, rendering) };
    patchValue = parsed.value;
  } else {
    // A value given in-process is what its text would parse to (ApiRequest.json).
    const parsed = req.json !== undefined ? { ok: true as const, value: req.json } : decodePatchJson(bodyText(req));
    if (!parsed.ok) return { world, response: respondError(parsed.error, rendering) };
    patchValue = parsed.value;
  }
  const write = { rt: r.rt, subresource: r.subresource, namespace: r.namespace ?? '', name: r.name ?? '' };
  // The RBAC storage's escalation check, on the object the patch produced, before the store checks
  // and validates it (auth/rbac/writeGuard.ts).
  const storageGuard = (object: KubeObject, verb: 'create' | 'update') => refuseRbacWrite(world, base.names, req.user, write, verb, object);
  const ctx = contextWith(base, { dryRun: opts.dryRun, fieldManager: opts.fieldManager, storageGuard });
  const result = patch(ctx, r.namespace ?? '', r.name ?? '', { type: format, patch: patchValue, force: parseBool(forceText) === true, fieldValidation: opts.fieldValidation });
  return withinStorageLimits(world, r, result, rendering);
}

function checkApplyBody(r: ResourceRoute, v: JsonValue): ReturnType<typeof errors.badRequest> | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return errors.badRequest('error decoding patch: the apply configuration must be an object');
  const av = typeof v['apiVersion'] === 'string' ? v['apiVersion'] : '';
  const kind = typeof v['kind'] === 'string' ? v['kind'] : '';
  const gv = parseGroupVersion(av);
  if (kind !== r.rt.kind || gv.group !== r.rt.group) return errors.badRequest(`invalid object type: ${gv.group}/${gv.version}, Kind=${kind}`);
  if (gv.version !== r.rt.version) return errors.badRequest(`Incorrect version specified in apply patch. Specified patch version: ${av}, expected: ${apiVersionOf(r.rt)}`);
  const meta = v['metadata'];
  if (typeof meta === 'object' && meta !== null && !Array.isArray(meta) && meta['managedFields'] !== undefined) return errors.badRequest('metadata.managedFields must be nil');
  return null;
}

/** `finish`, unless the write breaks a storage limit (store/storageLimits.ts): then the world stays. */
function withinStorageLimits(world: World, r: ResourceRoute, result: OpResult, rendering: Rendering): Handled {
  const handled = finish(world, r, result, rendering);
  if (!result.ok) return handled;
  const refused = storageRefusal({ before: world, after: result.world, rt: r.rt, code: result.code, body: result.body });
  return refused === null ? handled : { world, response: respondError(refused, rendering, result.warnings) };
}

function finish(world: World, r: ResourceRoute, result: OpResult, rendering: Rendering): Handled {
  if (!result.ok) return { world, response: respondError(result.error, rendering, result.warnings) };
  let body: unknown = result.body;
  if (rendering.output?.type === 'table') {
    const b = result.body as { items?: KubeObject[]; metadata: object };
    const isList = Array.isArray(b.items);
    const objects = isList ? b.items! : [result.body as KubeObject];
    const meta = isList ? b.metadata : { resourceVersion: (result.body as KubeObject).metadata.resourceVersion ?? '' };
    body = toTable(r.rt, objects, meta, result.world.now, rendering.output);
  }
  return { world: result.world, response: respond(result.code, body, rendering, result.warnings) };
}
