/**
 * Node writes: as in Kubernetes, a create may carry status (the kubelet registers with it),
 * main-resource updates keep the stored status and `/status` writes keep the spec (the store
 * copies it from the stored object). Defaults on every write.
 */
import { fieldErrorString, type FieldError } from '../../core/fieldErrors.ts';
import { keepStatus, strategy } from '../common/defaultStrategy.ts';
import type { Strategy } from '../types.ts';
import { defaultNodeStatus, withNodeDefaults } from './defaults.ts';
import { validateNode, validateNodeUpdateOnly } from './validation.ts';

/** ValidateNode and ValidateNodeUpdate both look at taints and resources: report each once. */
function unique(errs: readonly FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errs.filter((e) => !seen.has(fieldErrorString(e)) && seen.add(fieldErrorString(e)) !== undefined);
}

export const nodeStrategy: Strategy = strategy({
  prepareForCreate: withNodeDefaults,
  prepareForUpdate: (node, old) => keepStatus(withNodeDefaults(node), old),
  validate: validateNode,
  validateUpdate: (node, old) => unique([...validateNode(node), ...validateNodeUpdateOnly(node, old)]),
});

export const nodeStatusStrategy: Strategy = strategy({
  prepareForUpdate: (node) => defaultNodeStatus(node),
  validateUpdate: validateNodeUpdateOnly,
});
