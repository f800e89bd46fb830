/**
 * The messages a refusal's cause carries (apimachinery's field.Error bodies, with the wording of
 * k8s.io/apimachinery/pkg/util/validation), for the near-valid arbitraries to say exactly what a
 * faithful server answers. Written out here on their own rather than taken from the simulation's
 * validators, so that the property tests hold the simulation to them.
 */

/** A bad value as field.Error shows it: a string quoted, a number bare, anything else as JSON. */
const shown = (v: unknown): string => (typeof v === 'number' ? String(v) : JSON.stringify(v ?? null));

export const cause = {
  required: (detail = ''): string => (detail === '' ? 'Required value' : `Required value: ${detail}`),
  invalid: (bad: unknown, detail: string): string => `Invalid value: ${shown(bad)}: ${detail}`,
  notSupported: (bad: unknown, supported: readonly string[]): string => `Unsupported value: ${shown(bad)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
  duplicate: (bad: unknown): string => `Duplicate value: ${shown(bad)}`,
  forbidden: (detail: string): string => `Forbidden: ${detail}`,
};

/** The format rules' messages (the doubled space before `or` is apimachinery's own). */
export const rules = {
  dns1123Label:
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
  dns1123Subdomain:
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
  dns1035Label:
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
  configKey: "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
  labelValue:
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
  cidr: 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
};
