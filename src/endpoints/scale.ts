/**
 * The `scale` subresource (autoscaling/v1 Scale) of a StatefulSet: GET answers the Scale; PUT
 * and PATCH (JSON, merge, strategic; an apply patch is merged the same way) change only
 * `spec.replicas`, through an update of the StatefulSet with the Scale's resourceVersion as the
 * precondition, so a stale Scale is a 409 like any stale write.
 */
import type { KubeObject } from '../api/meta.ts';
import { parseGroupVersion } from '../api/meta.ts';
import { isObject, objectField, type JsonObject, type JsonValue } from '../core/json.ts';
import { errors, type ApiError } from '../core/status.ts';
import { scaleOf, scaleSchema } from '../registry/stateful-set/scale.ts';
import { decodeBody, decodePatchJson } from '../store/decode/decodeBody.ts';
import { parseYamlDocument } from '../store/decode/parseYaml.ts';
import { applyJsonPatch } from '../store/patch/jsonPatch.ts';
import { applyMergePatch } from '../store/patch/mergePatch.ts';
import { applyStrategicMergePatch } from '../store/patch/strategicMergePatch.ts';
import type { OpContext, OpResult } from '../store/ops/context.ts';
import { fail } from '../store/ops/context.ts';
import { scaleParent, writeScale } from '../store/ops/scale.ts';
import { checkPatchedFields } from '../store/ops/patchFields.ts';
import { convertToType } from '../store/apply/convertToType.ts';
import { bodyFormatOf, patchFormatOf, readMediaTypes } from './negotiate.ts';

export function getScale(ctx: OpContext, namespace: string, name: string): OpResult {
  const c = scaleParent(ctx, namespace, name);
  return c.ok ? { ok: true, world: ctx.world, code: 200, body: scaleOf(c.parent), warnings: [] } : c.result;
}

export function putScale(ctx: OpContext, namespace: string, name: string, body: string | Uint8Array, contentType: string | undefined, fieldValidation: 'Ignore' | 'Warn' | 'Strict'): OpResult {
  const format = bodyFormatOf(contentType);
  if (format === null) return fail(errors.unsupportedMediaType(readMediaTypes));
  const decoded = decodeBody({ bytes: body, contentType: format, schema: scaleSchema, kind: 'Scale', version: 'v1', fieldValidation });
  if (!decoded.ok) return fail(decoded.error);
  const av = decoded.object['apiVersion'];
  if (typeof av === 'string' && av !== '' && av !== 'autoscaling/v1') return fail(errors.badRequest(`the API version in the data (${av}) does not match the expected API version (autoscaling/v1)`));
  const c = scaleParent(ctx, namespace, name);
  if (!c.ok) return c.result;
  const scale = { ...decoded.object, metadata: objectField(decoded.object, 'metadata') } as unknown as KubeObject;
  const r = writeScale(ctx, c.parent, scale, namespace, name);
  return decoded.warnings.length === 0 ? r : { ...r, warnings: [...decoded.warnings, ...r.warnings] };
}

function patched(scale: KubeObject, format: 'json' | 'merge' | 'strategic' | 'apply', body: string): { ok: true; value: JsonValue } | { ok: false; error: ApiError } {
  if (format === 'apply') {
    const parsed = parseYamlDocument(body);
    if (!parsed.ok) return { ok: false, error: errors.badRequest(`error decoding patch: ${parsed.message}`) };
    const gv = isObject(parsed.value) && typeof parsed.value['apiVersion'] === 'string' ? parseGroupVersion(parsed.value['apiVersion']) : { group: '', version: '' };
    if (!isObject(parsed.value) || parsed.value['kind'] !== 'Scale' || gv.group !== 'autoscaling') return { ok: false, error: errors.badRequest(`invalid object type: ${gv.group}/${gv.version}, Kind=${isObject(parsed.value) ? String(parsed.value['kind'] ?? '') : ''}`) };
    return { ok: true, value: applyMergePatch(scale as unknown as JsonValue, parsed.value) };
  }
  const p = decodePatchJson(body);
  if (!p.ok) return p;
  if (format === 'json') return applyJsonPatch(scale as unknown as JsonValue, p.value);
  if (!isObject(p.value)) return { ok: false, error: errors.badRequest('json: cannot unmarshal array into Go value of type map[string]interface {}') };
  if (format === 'merge') return { ok: true, value: applyMergePatch(scale as unknown as JsonValue, p.value) };
  return applyStrategicMergePatch(scale as unknown as JsonObject, p.value, scaleSchema);
}

/**
 * The patched Scale as its Go type holds it, as the patch handler decodes it: a value of the
 * wrong type (`replicas: 2.5`, `"3"`) is the 422 of any patch, or for an apply patch the 400 of
 * its conversion (store/apply/convertToType.ts). Unchecked, `replicas: 2147483647.5` would have
 * the StatefulSet controller make two billion pods.
 */
function typedScale(value: JsonValue, format: 'json' | 'merge' | 'strategic' | 'apply', patch: string, namespace: string, name: string): { ok: true; value: JsonValue } | { ok: false; error: ApiError } {
  if (format === 'apply') {
    const typed = convertToType(value, scaleSchema);
    if (typed.ok) return typed;
    return { ok: false, error: errors.badRequest(`failed to convert new object (${namespace}/${name}; autoscaling/v1, Kind=Scale) to proper version (autoscaling/v1): ${typed.problem}`) };
  }
  const checked = checkPatchedFields({ schema: scaleSchema, kind: 'Scale', version: 'v1' }, value, { type: format, patch, fieldValidation: 'Ignore' });
  return checked.ok ? { ok: true, value: checked.object as unknown as JsonValue } : checked;
}

export function patchScale(ctx: OpContext, namespace: string, name: string, body: string, contentType: string | undefined): OpResult {
  const format = patchFormatOf(contentType);
  if (format === null) return fail(errors.unsupportedPatchType());
  const c = scaleParent(ctx, namespace, name);
  if (!c.ok) return c.result;
  const p = patched(scaleOf(c.parent), format, body);
  if (!p.ok) return fail(p.error);
  if (!isObject(p.value)) return fail(errors.badRequest('the patched object is not a Scale'));
  const typed = typedScale(p.value, format, body, namespace, name);
  if (!typed.ok) return fail(typed.error);
  return writeScale(ctx, c.parent, typed.value as unknown as KubeObject, namespace, name);
}
