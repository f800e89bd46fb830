/**
 * What a JSON `null` becomes as an element of a typed list or a value of a typed map. Go's
 * decoder cannot leave a list element or map value out: it leaves the element's zero value
 * there (null is ignored for strings, numbers, booleans and structs; Quantity's and IntOrString's
 * UnmarshalJSON reset to zero), and that zero value is what is stored and answered — `""`, `0`,
 * `false`, `{}`, `"0"` for a Quantity. A nil `[]byte`, slice or map comes back from storage
 * (protobuf) empty: Secret `data: {"a": null}` is stored as `"a": ""`, CSR `extra: {"k": null}`
 * as `"k": []`. A free-form element (RawExtension, interface{}) and a zero Time stay `null`.
 */
import type { Schema } from '../../api/schema.ts';
import type { JsonValue } from '../../core/json.ts';

export function nullElement(schema: Schema): JsonValue {
  switch (schema.type) {
    case 'string':
      return schema.format === 'date-time' ? null : '';
    case 'integer':
    case 'number':
    case 'int-or-string':
      return 0;
    case 'boolean':
      return false;
    case 'quantity':
      return '0';
    case 'struct':
    case 'map':
      return {};
    case 'list':
      return [];
    case 'any':
      return null;
  }
}
