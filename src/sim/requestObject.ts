/**
 * The object a user's API request concerns, for fault rules' `when` and a create's name: the
 * request's body for a create of a collection (decoded as the server decodes it; none when it
 * does not decode — the request fails anyway), else the stored object the request names.
 */
import type { RequestAttributes } from '../auth/requestInfo.ts';
import type { ResourceTable } from '../registry/index.ts';
import { getObject } from '../store/objects.ts';
import type { World } from '../store/world.ts';
import { decodeBody } from '../store/decode/decodeBody.ts';
import { bodyFormatOf } from '../endpoints/negotiate.ts';
import { bodyBytes, bodyText, header, type ApiRequest } from '../endpoints/types.ts';

export function requestObject(world: World, table: ResourceTable, attrs: RequestAttributes, request: ApiRequest): unknown {
  if (!attrs.resourceRequest) return undefined;
  const rt = table.byPath(attrs.apiGroup, attrs.apiVersion, attrs.resource);
  if (rt === undefined) return undefined;
  if (attrs.verb === 'create' && attrs.subresource === '') {
    const format = bodyFormatOf(header(request.headers, 'content-type'));
    if (format === null) return undefined;
    const decoded = decodeBody({ bytes: format === 'protobuf' ? bodyBytes(request) : bodyText(request), contentType: format, schema: rt.schema, kind: rt.kind, version: rt.version, fieldValidation: 'Ignore' });
    return decoded.ok ? decoded.object : undefined;
  }
  if (attrs.name === '') return undefined;
  return getObject(world, rt.id, rt.namespaced ? attrs.namespace : '', attrs.name);
}
