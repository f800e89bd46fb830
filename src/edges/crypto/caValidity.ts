/**
 * How long the seeded CA is valid: from a day before the virtual start for ten years. Its own
 * module (no X.509 code) so that the signers' configuration can know the CA's expiry without
 * making the CA (edges/simulation/create.ts) and the CA is made with the same bounds (clusterCa.ts).
 */
const day = 86_400_000;

export function seededCaValidity(start: number): { readonly notBefore: number; readonly notAfter: number } {
  return { notBefore: start - day, notAfter: start + 3650 * day };
}

/** The seeded CA's notAfter as its certificate states it: whole seconds, as an X.509 time. */
export function seededCaNotAfter(start: number): number {
  return Math.floor(seededCaValidity(start).notAfter / 1000) * 1000;
}
