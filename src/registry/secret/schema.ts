/** Secret (core/v1) schema facts: base64 `data`, write-only `stringData`, `type`, `immutable`. */
import { s } from '../../api/schema.ts';
import { objectMetaSchema } from '../../api/meta.ts';

export const secretSchema = s.struct('Secret', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  immutable: s.boolean(),
  data: s.map(s.bytes()),
  stringData: s.map(s.string()),
  type: s.string(),
});
