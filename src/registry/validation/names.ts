/**
 * Name and key syntax, with apimachinery's exact messages (pkg/util/validation/validation.go,
 * pkg/api/validate/content/{dns,kube,path,errors}.go, pkg/api/validation/generic.go).
 *
 * Rules:
 * - Every check returns a list of messages (empty = valid); callers wrap them in FieldErrors.
 * - Lengths are UTF-8 byte lengths, as Go's `len`.
 * - Object names use the older util/validation helpers, whose length message says
 *   `characters`; label keys and values use the newer `content` helpers, which say `bytes`
 *   (both live side by side in Kubernetes 1.35+, so both wordings are real).
 * - `prefix = true` validates a generateName: a trailing `-` is allowed because a suffix follows.
 */

/** Byte length of the UTF-8 encoding, i.e. Go's `len(s)`. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** `msg (e.g. 'a',  or 'b', regex used for validation is 're')`: the doubled space is real. */
function regexError(msg: string, re: string, examples: readonly string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${re}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${re}')`;
}

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123LabelRe = new RegExp(`^${dns1123LabelFmt}$`);
const dns1123SubdomainRe = new RegExp(`^${dns1123SubdomainFmt}$`);
const dns1123LabelMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const dns1123SubdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

type LengthUnit = 'characters' | 'bytes';

function maxLen(max: number, unit: LengthUnit): string {
  return `must be no more than ${max} ${unit}`;
}

function dns1123Subdomain(value: string, unit: LengthUnit): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > 253) errs.push(maxLen(253, unit));
  if (!dns1123SubdomainRe.test(value)) errs.push(regexError(dns1123SubdomainMsg, dns1123SubdomainFmt, ['example.com']));
  return errs;
}

/** RFC 1123 subdomain (≤253): ServiceAccount, ConfigMap, Secret, Pod names. */
export function isDNS1123Subdomain(value: string): string[] {
  return dns1123Subdomain(value, 'characters');
}

/** RFC 1123 label (≤63, no dots): Namespace names and the namespace of every object. */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > 63) errs.push(maxLen(63, 'characters'));
  if (!dns1123LabelRe.test(value)) {
    // A valid subdomain that is not a label can only be failing because of its dots.
    if (dns1123SubdomainRe.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(dns1123LabelMsg, dns1123LabelFmt, ['my-name', '123-abc']));
  }
  return errs;
}

/** Names that become one URL path segment: the minimum every kind enforces. */
export function isValidPathSegmentName(value: string): string[] {
  if (value === '.' || value === '..') return [`may not be '${value}'`];
  return isValidPathSegmentPrefix(value);
}

/** The generateName variant: `.` and `..` are fine because a suffix follows. */
export function isValidPathSegmentPrefix(value: string): string[] {
  const errs: string[] = [];
  if (value.includes('/')) errs.push("may not contain '/'");
  if (value.includes('%')) errs.push("may not contain '%'");
  return errs;
}

const labelKeyFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const labelKeyRe = new RegExp(`^${labelKeyFmt}$`);
const labelKeyMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelKeyExamples = ['MyName', 'my.name', '123-abc'];

/** Label key / annotation key / finalizer name: `[prefix/]name` (content.IsLabelKey). */
export function isQualifiedName(value: string): string[] {
  const parts = value.split('/');
  if (parts.length > 2) {
    return [`a valid label key ${regexError(labelKeyMsg, labelKeyFmt, labelKeyExamples)} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  const errs: string[] = [];
  const name = parts.length === 2 ? parts[1]! : parts[0]!;
  if (parts.length === 2) {
    const prefix = parts[0]!;
    if (prefix === '') errs.push('prefix part must be non-empty');
    else errs.push(...dns1123Subdomain(prefix, 'bytes').map((m) => `prefix part ${m}`));
  }
  // Empty names get both messages, as in Kubernetes: the regex check is not an else-branch.
  if (name === '') errs.push('name part must be non-empty');
  else if (utf8Length(name) > 63) errs.push(`name part ${maxLen(63, 'bytes')}`);
  if (!labelKeyRe.test(name)) errs.push(`name part ${regexError(labelKeyMsg, labelKeyFmt, labelKeyExamples)}`);
  return errs;
}

const labelValueFmt = `(${labelKeyFmt})?`;
const labelValueRe = new RegExp(`^${labelValueFmt}$`);
const labelValueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** Label value: empty allowed, ≤63 bytes. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > 63) errs.push(maxLen(63, 'bytes'));
  if (!labelValueRe.test(value)) errs.push(regexError(labelValueMsg, labelValueFmt, ['MyValue', 'my_value', '12345']));
  return errs;
}

/**
 * Kubernetes' maskTrailingDash: for a prefix ending in `-` (longer than one character) it drops
 * the last two characters and appends `a`, so `ab-` is checked as `aa` and `--` as `a`.
 */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

export type NameRule = 'subdomain' | 'label' | 'path';

/** A ValidateNameFunc: `prefix` is true when checking a generateName. */
export type NameValidator = (name: string, prefix: boolean) => string[];

/** The name functions kinds pick from (NameIsDNSSubdomain, NameIsDNSLabel, ValidatePathSegmentName). */
export const nameValidator: Readonly<Record<NameRule, NameValidator>> = {
  subdomain: (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name),
  label: (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name),
  path: (name, prefix) => (prefix ? isValidPathSegmentPrefix(name) : isValidPathSegmentName(name)),
};
