/** ControllerRevision (apps/v1) schema facts: free-form `data` and a `revision` number. */
import { objectMetaSchema } from '../../api/meta.ts';
import { s } from '../../api/schema.ts';

export const controllerRevisionSchema = s.struct('ControllerRevision', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  data: s.any(),
  revision: s.int64(),
});
