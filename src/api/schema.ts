/**
 * Schema facts of a kind: one small tree per kind, the single source for strict decoding
 * (unknown fields, Go type errors), strategic merge patch (patchStrategy, patchMergeKey),
 * server-side apply (list types and map keys), defaulting of `null`, and the OpenAPI documents.
 * It carries what Kubernetes keeps in Go struct tags and OpenAPI extensions, nothing more.
 */

/** Go type name used in decoder messages (`bool`, `string`, `int64`, `map[string]string`, `[]v1.ObjectReference`). */
export interface SchemaCommon {
  readonly goType?: string;
  readonly description?: string;
}

export interface StringSchema extends SchemaCommon {
  readonly type: 'string';
  /** `date-time` for metav1.Time, `byte` for base64 []byte. */
  readonly format?: 'date-time' | 'byte';
}
export interface IntegerSchema extends SchemaCommon {
  readonly type: 'integer';
  readonly format: 'int32' | 'int64';
}
export interface NumberSchema extends SchemaCommon {
  readonly type: 'number';
}
export interface BooleanSchema extends SchemaCommon {
  readonly type: 'boolean';
}
/** intstr.IntOrString: a JSON number or string. */
export interface IntOrStringSchema extends SchemaCommon {
  readonly type: 'int-or-string';
}
/** resource.Quantity: a string, or a number in JSON. */
export interface QuantitySchema extends SchemaCommon {
  readonly type: 'quantity';
}
/** Free-form JSON kept as is (runtime.RawExtension, unstructured fields). */
export interface AnySchema extends SchemaCommon {
  readonly type: 'any';
}

/** A Go struct: known fields only. */
export interface StructSchema extends SchemaCommon {
  readonly type: 'struct';
  /** Go struct name for decoder messages (`ServiceAccount`, `ObjectMeta`). */
  readonly goName: string;
  readonly fields: Readonly<Record<string, Schema>>;
  /** SMP `patchStrategy:"retainKeys"` on this struct (e.g. StatefulSet updateStrategy). */
  readonly retainKeys?: boolean;
  /** Server-side apply: `x-kubernetes-map-type: atomic` makes the whole struct one field. */
  readonly atomic?: boolean;
}

/**
 * Lists and maps are `omitempty` in their Go json tag unless `keepEmpty` says otherwise: an empty
 * one is left out of stored objects and answers, as Go's encoding/json leaves it out.
 */
interface CollectionCommon extends SchemaCommon {
  /** The Go json tag has no `omitempty` (`json:"rules"`): an empty one is written, not left out. */
  readonly keepEmpty?: boolean;
}

/** map[string]X (labels, annotations, data). */
export interface MapSchema extends CollectionCommon {
  readonly type: 'map';
  readonly values: Schema;
  /** Server-side apply: `x-kubernetes-map-type` (default granular). */
  readonly atomic?: boolean;
}

export interface ListSchema extends CollectionCommon {
  readonly type: 'list';
  readonly items: Schema;
  /** Server-side apply list type (`x-kubernetes-list-type`). */
  readonly listType: 'atomic' | 'set' | 'map';
  /** `x-kubernetes-list-map-keys` when listType is `map`. */
  readonly mapKeys?: readonly string[];
  /** Strategic merge patch: `merge` with a merge key (or none for primitive lists), or `replace` (default). */
  readonly patchStrategy?: 'merge' | 'replace';
  readonly patchMergeKey?: string;
}

export type Schema =
  | StringSchema
  | IntegerSchema
  | NumberSchema
  | BooleanSchema
  | IntOrStringSchema
  | QuantitySchema
  | AnySchema
  | StructSchema
  | MapSchema
  | ListSchema;

/** Small constructors so that kind schemas read like their Go types. */
export const s = {
  string: (description?: string): StringSchema => (description === undefined ? { type: 'string' } : { type: 'string', description }),
  time: (): StringSchema => ({ type: 'string', format: 'date-time', goType: 'Time' }),
  bytes: (): StringSchema => ({ type: 'string', format: 'byte', goType: '[]uint8' }),
  int32: (): IntegerSchema => ({ type: 'integer', format: 'int32' }),
  int64: (): IntegerSchema => ({ type: 'integer', format: 'int64' }),
  number: (): NumberSchema => ({ type: 'number' }),
  boolean: (): BooleanSchema => ({ type: 'boolean' }),
  intOrString: (): IntOrStringSchema => ({ type: 'int-or-string', goType: 'intstr.IntOrString' }),
  quantity: (): QuantitySchema => ({ type: 'quantity', goType: 'resource.Quantity' }),
  any: (): AnySchema => ({ type: 'any' }),
  struct: (goName: string, fields: Record<string, Schema>, extra: Partial<Pick<StructSchema, 'retainKeys' | 'atomic'>> = {}): StructSchema => ({
    type: 'struct',
    goName,
    fields,
    ...extra,
  }),
  map: (values: Schema, extra: Partial<Pick<MapSchema, 'atomic' | 'goType'>> = {}): MapSchema => ({ type: 'map', values, ...extra }),
  atomicList: (items: Schema): ListSchema => ({ type: 'list', items, listType: 'atomic' }),
  /** A list merged by key under both SMP and apply (`patchStrategy:"merge" patchMergeKey:key`). */
  keyedList: (items: Schema, key: string, extraKeys: readonly string[] = []): ListSchema => ({
    type: 'list',
    items,
    listType: 'map',
    mapKeys: [key, ...extraKeys],
    patchStrategy: 'merge',
    patchMergeKey: key,
  }),
  /** A list or map whose Go json tag has no `omitempty`: written even when empty. */
  keepEmpty: <T extends ListSchema | MapSchema>(schema: T): T => ({ ...schema, keepEmpty: true }),
  /** A list of primitives merged as a set (`metadata.finalizers`). */
  set: (items: Schema, smpMerge = true): ListSchema =>
    smpMerge ? { type: 'list', items, listType: 'set', patchStrategy: 'merge' } : { type: 'list', items, listType: 'set' },
};

/** Go type name for messages, derived where the schema does not name one. */
export function goTypeOf(schema: Schema): string {
  if (schema.goType !== undefined) return schema.goType;
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
      return schema.format;
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'int-or-string':
      return 'intstr.IntOrString';
    case 'quantity':
      return 'resource.Quantity';
    case 'any':
      return 'interface {}';
    case 'struct':
      return `v1.${schema.goName}`;
    case 'map':
      return `map[string]${goTypeOf(schema.values)}`;
    case 'list':
      return `[]${goTypeOf(schema.items)}`;
  }
}
