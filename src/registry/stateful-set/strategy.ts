/**
 * StatefulSet writes (pkg/registry/apps/statefulset/strategy.go): defaults on create and update,
 * main-resource updates keep the stored status, `/status` writes everything but status; a
 * negative revisionHistoryLimit earns a warning.
 */
import type { KubeObject } from '../../api/meta.ts';
import { objectField } from '../../core/json.ts';
import { keepAllButStatus, keepStatus, strategy } from '../common/defaultStrategy.ts';
import type { Strategy } from '../types.ts';
import { withStatefulSetDefaults } from './defaults.ts';
import { validateStatefulSetSpec, validateStatefulSetStatus, validateStatefulSetUpdate } from './validation.ts';

function revisionHistoryWarning(o: KubeObject): string[] {
  const spec = objectField(o, 'spec');
  const limit = spec['revisionHistoryLimit'];
  return typeof limit === 'number' && limit < 0 ? ['spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended'] : [];
}

export const statefulSetStrategy: Strategy = strategy({
  prepareForCreate: (o) => withStatefulSetDefaults(o),
  validate: (o) => validateStatefulSetSpec(o),
  warningsOnCreate: revisionHistoryWarning,
  prepareForUpdate: (o, old) => keepStatus(withStatefulSetDefaults(o), old),
  validateUpdate: (o, old) => validateStatefulSetUpdate(o, old),
  warningsOnUpdate: revisionHistoryWarning,
});

export const statefulSetStatusStrategy: Strategy = strategy({
  prepareForUpdate: keepAllButStatus,
  validateUpdate: (o, old) => validateStatefulSetStatus(o, old),
});
