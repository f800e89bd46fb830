/**
 * `POST pods/{name}/binding` (BindingREST): checks the Binding, then changes the pod in one
 * write, as a GuaranteedUpdate with the Binding's uid and resourceVersion as preconditions. The
 * pod's managed fields are left alone (the real binding writes storage directly, not through the
 * field manager). Answers a success Status with code 201.
 */
import type { KubeObject } from '../../api/meta.ts';
import { errors, type Status } from '../../core/status.ts';
import { bindingRefusal, boundPod, validateBinding } from '../../registry/pod/binding.ts';
import { commit } from '../commit.ts';
import { getObject } from '../objects.ts';
import { fail, type OpContext, type OpResult } from './context.ts';

const bindingResource = { group: '', resource: 'pods/binding' };

export function bindPod(ctx: OpContext, namespace: string, binding: KubeObject): OpResult {
  const name = binding.metadata.name ?? '';
  const problems = validateBinding(binding);
  if (problems.length > 0) return fail(errors.invalid({ group: '', kind: 'Binding' }, name, problems));
  const pod = getObject(ctx.world, 'core/pods', namespace, name);
  if (pod === undefined) return fail(errors.notFound({ group: '', resource: 'pods' }, name));
  const { uid, resourceVersion } = binding.metadata;
  if (uid !== undefined && uid !== '' && uid !== pod.metadata.uid) {
    return fail(errors.conflict(bindingResource, name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${pod.metadata.uid ?? ''}`));
  }
  if (resourceVersion !== undefined && resourceVersion !== '' && resourceVersion !== pod.metadata.resourceVersion) {
    return fail(errors.conflict(bindingResource, name, `Precondition failed: ResourceVersion in precondition: ${resourceVersion}, ResourceVersion in object meta: ${pod.metadata.resourceVersion ?? ''}`));
  }
  const refusal = bindingRefusal(pod);
  if (refusal !== null) return fail(errors.conflict(bindingResource, name, refusal));
  const body: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
  if (ctx.dryRun) return { ok: true, world: ctx.world, code: 201, body, warnings: [] };
  const done = commit(ctx.world, 'core/pods', 'MODIFIED', boundPod(pod, binding, ctx.world.now), pod);
  return { ok: true, world: done.world, code: 201, body, warnings: [] };
}
