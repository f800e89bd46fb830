/**
 * The facts of writes that can need none (bootstrap, controllers of kinds without crypto):
 * asking for one is a bug in the caller, not a user mistake.
 */
import { InvariantError } from '../core/assert.ts';
import type { CryptoFacts } from './crypto.ts';

function missing(what: string): never {
  throw new InvariantError(`crypto fact "${what}" asked for where no facts were provided`);
}

export const noCryptoFacts: CryptoFacts = {
  jwsSignature: () => missing('jwsSignature'),
  serviceAccountToken: () => missing('serviceAccountToken'),
  certificateChain: () => missing('certificateChain'),
  certificateRequest: () => missing('certificateRequest'),
  issuedCertificate: () => missing('issuedCertificate'),
  parsedCertificates: () => missing('parsedCertificates'),
};
