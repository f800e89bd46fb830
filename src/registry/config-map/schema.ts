/** ConfigMap (core/v1) schema facts: string `data`, base64 `binaryData`, the `immutable` switch. */
import { s } from '../../api/schema.ts';
import { objectMetaSchema } from '../../api/meta.ts';

export const configMapSchema = s.struct('ConfigMap', {
  apiVersion: s.string(),
  kind: s.string(),
  metadata: objectMetaSchema,
  immutable: s.boolean(),
  data: s.map(s.string()),
  binaryData: s.map(s.bytes()),
});
