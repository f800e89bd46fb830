/**
 * Content negotiation: which representation a client accepts (JSON, YAML, a meta.k8s.io Table)
 * and which request body formats an endpoint reads. Parameters such as `charset` are ignored.
 */
export type Output = { type: 'json' } | { type: 'yaml' } | { type: 'table'; includeObject: 'None' | 'Metadata' | 'Object' };

/** Representations the server writes (a 406 lists them). */
export const servedMediaTypes = ['application/json', 'application/yaml'];
/** Body formats the server reads (a 415 lists them): kubectl's typed commands send protobuf. */
export const readMediaTypes = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

interface MediaRange {
  type: string;
  params: Record<string, string>;
}

function parseAccept(accept: string): MediaRange[] {
  return accept
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const [type = '', ...rest] = part.split(';').map((x) => x.trim());
      // Parameter names are the client's: a map without a prototype.
      const params = Object.create(null) as Record<string, string>;
      for (const p of rest) {
        const i = p.indexOf('=');
        if (i > 0) params[p.slice(0, i).toLowerCase()] = p.slice(i + 1).replace(/^"|"$/g, '');
      }
      return { type: type.toLowerCase(), params };
    });
}

/** Picks the first acceptable representation, or null (406). `tableAllowed` for get/list. */
export function negotiateOutput(accept: string | undefined, tableAllowed: boolean, includeObject: string | null): Output | null {
  if (accept === undefined || accept.trim() === '') return { type: 'json' };
  for (const r of parseAccept(accept)) {
    const as = r.params['as'];
    if (as !== undefined) {
      const isTable = as === 'Table' && r.params['g'] === 'meta.k8s.io' && (r.params['v'] === 'v1' || r.params['v'] === 'v1beta1');
      if (isTable && tableAllowed && (r.type === 'application/json' || r.type === '*/*')) {
        const inc = includeObject === 'None' || includeObject === 'Object' ? includeObject : 'Metadata';
        return { type: 'table', includeObject: inc };
      }
      continue; // other transformations (PartialObjectMetadata) are not served
    }
    if (r.type === 'application/json' || r.type === '*/*' || r.type === 'application/*') return { type: 'json' };
    if (r.type === 'application/yaml') return { type: 'yaml' };
  }
  return null;
}

export type BodyFormat = 'json' | 'yaml' | 'protobuf';
export type PatchFormat = 'json' | 'merge' | 'strategic' | 'apply';

export function mediaType(contentType: string | undefined): string {
  const text = contentType ?? '';
  const end = text.indexOf(';');
  return (end < 0 ? text : text.slice(0, end)).trim().toLowerCase();
}

export function bodyFormatOf(contentType: string | undefined): BodyFormat | null {
  const t = mediaType(contentType);
  if (t === '' || t === 'application/json') return 'json';
  if (t === 'application/yaml') return 'yaml';
  if (t === 'application/vnd.kubernetes.protobuf') return 'protobuf';
  return null;
}

export function patchFormatOf(contentType: string | undefined): PatchFormat | null {
  switch (mediaType(contentType)) {
    case 'application/json-patch+json':
      return 'json';
    case 'application/merge-patch+json':
      return 'merge';
    case 'application/strategic-merge-patch+json':
      return 'strategic';
    case 'application/apply-patch+yaml':
      return 'apply';
    default:
      return null;
  }
}
