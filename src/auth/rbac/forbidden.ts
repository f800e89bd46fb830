/**
 * The 403 of a denied request (apiserver endpoints/handlers/responsewriters/errors.go): a
 * sentence naming user, verb and target, HTML-escaped because it may be shown in a browser, then
 * the authorizer's reason (not escaped, as in Kubernetes), wrapped in a Forbidden Status for the
 * resource (without subresource) and name.
 */
import { goQuote } from '../../core/goFormat.ts';
import { errors, type ApiError } from '../../core/status.ts';
import type { Attributes } from './attributes.ts';

const escapes: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

function sentence(attrs: Attributes): string {
  const who = `User ${goQuote(attrs.user.username)} cannot ${attrs.verb}`;
  if (!attrs.resourceRequest) return `${who} path ${goQuote(attrs.path)}`;
  const resource = attrs.subresource === '' ? attrs.resource : `${attrs.resource}/${attrs.subresource}`;
  const what = `${who} resource ${goQuote(resource)} in API group ${goQuote(attrs.apiGroup)}`;
  return attrs.namespace === '' ? `${what} at the cluster scope` : `${what} in the namespace ${goQuote(attrs.namespace)}`;
}

export function forbidden(attrs: Attributes, reason: string): ApiError {
  const escaped = sentence(attrs).replace(/[&<>]/g, (c) => escapes[c]!);
  const why = reason === '' ? escaped : `${escaped}: ${reason}`;
  // NewForbidden drops the resource prefix only when both group and resource are empty.
  const gr = attrs.resourceRequest && (attrs.apiGroup !== '' || attrs.resource !== '') ? { group: attrs.apiGroup, resource: attrs.resource } : null;
  return errors.forbidden(gr, gr === null ? '' : attrs.name, why);
}
