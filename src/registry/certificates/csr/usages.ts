/**
 * The key usages a CSR may request (certificates/v1 KeyUsage), sorted as Kubernetes lists them
 * in NotSupported errors (sets.List sorts).
 */
export const knownUsages: readonly string[] = [
  'signing',
  'digital signature',
  'content commitment',
  'key encipherment',
  'key agreement',
  'data encipherment',
  'cert sign',
  'crl sign',
  'encipher only',
  'decipher only',
  'any',
  'server auth',
  'client auth',
  'code signing',
  'email protection',
  's/mime',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'timestamping',
  'ocsp signing',
  'microsoft sgc',
  'netscape sgc',
].sort();

const known = new Set(knownUsages);

export function isKnownUsage(usage: string): boolean {
  return known.has(usage);
}
