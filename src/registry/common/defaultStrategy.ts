/**
 * The strategy every kind starts from: nothing to prepare, nothing kind-specific to validate, no
 * warnings. Generic ObjectMeta rules are applied by the store for every kind, before these hooks.
 * Kinds override only what differs, so each kind file reads as its differences from the default.
 */
import type { KubeObject } from '../../api/meta.ts';
import type { Strategy } from '../types.ts';

export const defaultStrategy: Strategy = {
  prepareForCreate: (obj) => obj,
  validate: () => [],
  warningsOnCreate: () => [],
  prepareForUpdate: (obj) => obj,
  validateUpdate: () => [],
  warningsOnUpdate: () => [],
};

export function strategy(overrides: Partial<Strategy>): Strategy {
  return { ...defaultStrategy, ...overrides };
}

/** Main-resource writes keep the stored status; status writes keep everything but status. */
export function keepStatus(obj: KubeObject, old: KubeObject): KubeObject {
  const out: KubeObject = { ...obj };
  if (old['status'] === undefined) delete out['status'];
  else out['status'] = old['status'];
  return out;
}

export function keepAllButStatus(obj: KubeObject, old: KubeObject): KubeObject {
  const out: KubeObject = { ...old, metadata: obj.metadata };
  if (obj['status'] === undefined) delete out['status'];
  else out['status'] = obj['status'];
  return out;
}

export const metadataFieldSelectors = {
  fields: ['metadata.name', 'metadata.namespace'],
  custom: false,
  extract: (obj: KubeObject): Record<string, string> => ({
    'metadata.name': obj.metadata.name ?? '',
    'metadata.namespace': obj.metadata.namespace ?? '',
  }),
} as const;

export const allVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const;
