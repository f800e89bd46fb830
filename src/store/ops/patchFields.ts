/**
 * The patched result must still be a well-typed object of the kind: unknown fields are dropped
 * (Ignore), dropped with a warning (Warn) or refused with the real 422 (Strict); type errors are
 * 422 ` "" is invalid: patch: Invalid value: …`.
 */
import type { KubeObject } from '../../api/meta.ts';
import type { JsonValue } from '../../core/json.ts';
import { fieldError } from '../../core/fieldErrors.ts';
import { errors, type ApiError } from '../../core/status.ts';
import type { ResourceType } from '../../registry/types.ts';
import { decodeTyped } from '../decode/typedDecode.ts';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export function checkPatchedFields(
  rt: Pick<ResourceType, 'schema' | 'kind' | 'version'>,
  patched: JsonValue,
  req: { type: string; patch: JsonValue; fieldValidation: FieldValidation },
  stored?: JsonValue,
): { ok: true; object: KubeObject; warnings: string[] } | { ok: false; error: ApiError } {
  const invalidPatch = (detail: string): ApiError =>
    errors.invalid({ group: '', kind: '' }, '', [fieldError.invalid('patch', JSON.stringify(patched), detail)]);
  const decoded = decodeTyped(patched, rt.schema, { kind: rt.kind, version: rt.version }, stored);
  if (!decoded.ok) return { ok: false, error: invalidPatch(decoded.message) };
  if (decoded.unknownFields.length > 0 && req.fieldValidation === 'Strict') {
    return { ok: false, error: invalidPatch(`strict decoding error: ${decoded.unknownFields.map((f) => `unknown field "${f}"`).join(', ')}`) };
  }
  const warnings = req.fieldValidation === 'Warn' ? decoded.unknownFields.map((f) => `unknown field "${f}"`) : [];
  const object = decoded.value as unknown as KubeObject;
  if (typeof object !== 'object' || object === null || typeof object.metadata !== 'object' || object.metadata === null) {
    return { ok: true, object: { ...(object as object), metadata: {} } as KubeObject, warnings };
  }
  return { ok: true, object, warnings };
}
