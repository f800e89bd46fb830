/**
 * ControllerRevision (apps/v1): an immutable snapshot of state (a StatefulSet's pod template)
 * with a revision number (pkg/apis/apps/validation ValidateControllerRevision).
 */
import type { KubeObject } from '../../api/meta.ts';
import { objectMetaSchema } from '../../api/meta.ts';
import { s } from '../../api/schema.ts';
import { fieldError, type FieldError } from '../../core/fieldErrors.ts';
import { deepEqual } from '../../core/json.ts';
import { allVerbs, metadataFieldSelectors, strategy } from '../common/defaultStrategy.ts';
import { ageColumn, nameColumn } from '../common/tables.ts';
import type { ResourceType } from '../types.ts';

export const controllerRevisionSchema = s.struct('ControllerRevision', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  data: s.any(),
  revision: s.int64(),
});

function validate(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (o['data'] === undefined || o['data'] === null) errs.push(fieldError.required('data', 'data is mandatory'));
  const r = o['revision'];
  if (typeof r === 'number' && r < 0) errs.push(fieldError.invalid('revision', r, 'must be greater than or equal to 0'));
  return errs;
}

function validateUpdate(o: KubeObject, old: KubeObject): FieldError[] {
  const errs = validate(o);
  if (!deepEqual(o['data'], old['data'])) errs.push(fieldError.invalid('data', o['data'] ?? null, 'field is immutable'));
  return errs;
}

export const controllerRevisionResource: ResourceType = {
  id: 'apps/controllerrevisions',
  group: 'apps',
  version: 'v1',
  resource: 'controllerrevisions',
  singular: 'controllerrevision',
  kind: 'ControllerRevision',
  listKind: 'ControllerRevisionList',
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: allVerbs,
  schema: controllerRevisionSchema,
  nameRule: 'subdomain',
  strategy: strategy({ validate, validateUpdate }),
  subresources: [],
  fieldSelectors: metadataFieldSelectors,
  deleteReturnsObject: false,
  allowUnconditionalUpdate: true,
  hasGeneration: false,
  resetFields: [],
  table: [
    nameColumn,
    {
      name: 'Controller',
      type: 'string',
      format: '',
      description: 'Controller of the object',
      priority: 0,
      cell: (o) => {
        const owner = (o.metadata.ownerReferences ?? []).find((r) => r.controller === true);
        if (owner === undefined) return '<none>';
        const group = owner.apiVersion.includes('/') ? owner.apiVersion.split('/')[0]! : '';
        return `${owner.kind.toLowerCase()}${group === '' ? '' : `.${group}`}/${owner.name}`;
      },
    },
    { name: 'Revision', type: 'integer', format: '', description: 'Revision of the ControllerRevision', priority: 0, cell: (o) => (typeof o['revision'] === 'number' ? o['revision'] : 0) },
    ageColumn,
  ],
};
