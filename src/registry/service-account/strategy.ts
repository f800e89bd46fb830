/**
 * ServiceAccount writes (pkg/registry/core/serviceaccount/strategy.go): every `secrets[]` entry
 * is reduced to its name on create and update; setting the deprecated
 * enforce-mountable-secrets annotation earns a warning.
 */
import type { KubeObject } from '../../api/meta.ts';
import { hasOwn, isObject } from '../../core/json.ts';
import { strategy } from '../common/defaultStrategy.ts';
import type { Strategy, StrategyContext } from '../types.ts';
import { validateServiceAccount } from './validation.ts';

function normalizeSecrets(obj: KubeObject): KubeObject {
  const secrets = obj['secrets'];
  if (!Array.isArray(secrets)) return obj;
  // ObjectReference{Name: name}: an empty name is left out, as its `omitempty` tag writes it.
  return { ...obj, secrets: secrets.map((ref) => (isObject(ref) && typeof ref['name'] === 'string' && ref['name'] !== '' ? { name: ref['name'] } : {})) };
}

function enforceWarning(obj: KubeObject, old: KubeObject | null, ctx: StrategyContext): string[] {
  const key = ctx.names.enforceMountableSecretsAnnotation;
  const has = (o: KubeObject | null): boolean => o !== null && o.metadata.annotations !== undefined && hasOwn(o.metadata.annotations, key);
  if (!has(obj) || has(old)) return [];
  return [`metadata.annotations[${key}]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets`];
}

export const serviceAccountStrategy: Strategy = strategy({
  prepareForCreate: (obj) => normalizeSecrets(obj),
  validate: validateServiceAccount,
  warningsOnCreate: (obj, ctx) => enforceWarning(obj, null, ctx),
  prepareForUpdate: (obj) => normalizeSecrets(obj),
  validateUpdate: validateServiceAccount,
  warningsOnUpdate: (obj, old, ctx) => enforceWarning(obj, old, ctx),
});
