/**
 * Name syntax a Service needs beyond registry/validation/names.ts: RFC 1035 labels (Service
 * names must start with a letter, so that they work as DNS names and environment variables),
 * with apimachinery's message (IsDNS1035Label in pkg/util/validation/validation.go). Port names
 * are registry/validation/ports.ts's.
 */
import { utf8Length } from '../validation/names.ts';

const dns1035Fmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035Re = new RegExp(`^${dns1035Fmt}$`);
const dns1035Msg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > 63) errs.push('must be no more than 63 characters');
  if (!dns1035Re.test(value)) errs.push(`${dns1035Msg} (e.g. 'my-name',  or 'abc-123', regex used for validation is '${dns1035Fmt}')`);
  return errs;
}
