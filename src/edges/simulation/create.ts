/**
 * `createSimulation` and `restoreSimulation`: the async edge that imports keys and certificates
 * (WebCrypto, jose, @peculiar/x509 — no `node:` imports, so this runs in browsers too) and hands
 * the pure simulation what it needs.
 */
import { resolveOptions, PlatformSimError, type SimulationOptions } from '../../sim/options.ts';
import { Simulation, type ClientCertificateRequest, type SimulationEdge, type Snapshot } from './simulation.ts';
import { readSavedWorldChecked } from '../../store/upgrade.ts';
import { parseInstant } from '../../core/duration.ts';
import type { ClusterCa } from '../crypto/clusterCa.ts';
import type { TrustRoots } from '../crypto/certificateChainFact.ts';
import type { SigningCa } from '../crypto/issueCertificate.ts';
import { createFactResolver } from '../crypto/factResolver.ts';
import { seededCaNotAfter } from '../crypto/caValidity.ts';
import { serviceAccountKeys } from '../crypto/serviceAccountKeys.ts';

/** The X.509 code of the edge, loaded on first use: a simulation that never meets a certificate never loads it. */
type X509Edge = typeof import('../crypto/clusterCa.ts') & typeof import('../crypto/certificateFacts.ts');
let x509Loaded: Promise<X509Edge> | undefined;
const x509Edge = (): Promise<X509Edge> => (x509Loaded ??= Promise.all([import('../crypto/clusterCa.ts'), import('../crypto/certificateFacts.ts')]).then(([a, b]) => ({ ...a, ...b })));

async function certificatesOption(name: string, pem: string | undefined): Promise<TrustRoots['client']> {
  if (pem === undefined) return [];
  const { parseCertificates } = await x509Edge();
  try {
    const certs = parseCertificates(pem);
    if (certs.length > 0) return certs;
  } catch {
    // reported below
  }
  throw new PlatformSimError('PSIM_OPTION_INVALID', `option ${name}: no PEM certificate (BEGIN CERTIFICATE) could be read`);
}

/**
 * Key material derived from the seed (and the keys given as options), made once per distinct
 * input and shared by every simulation made from it: imported keys and a generated certificate
 * never change. Bounded: past the bound the material least recently asked for goes. A failure is
 * not kept.
 */
const material = new Map<string, Promise<unknown>>();
const materialMax = 64;

function shared<T>(key: string, make: () => Promise<T>): Promise<T> {
  let p = material.get(key) as Promise<T> | undefined;
  if (p === undefined) {
    if (material.size >= materialMax) material.delete(material.keys().next().value!);
    p = make();
    p.catch(() => material.delete(key));
  } else material.delete(key);
  // Last in the map's order: the most recently asked for.
  material.set(key, p);
  return p;
}

async function edgeFor(options: SimulationOptions): Promise<SimulationEdge> {
  const o = resolveOptions(options);
  // The seeded CA is made the first time something needs it: a certificate to verify or issue,
  // its PEM, a serving certificate. Given options are read now, so that bad ones fail here.
  const ca = (): Promise<ClusterCa> => shared(JSON.stringify(['ca', o.seed, o.start]), async () => (await x509Edge()).clusterCa(o.seed, o.start));
  let keys;
  try {
    keys = await shared(JSON.stringify(['keys', o.seed, options.signingKeys ?? null]), () => serviceAccountKeys(o.seed, options.signingKeys));
  } catch (e) {
    throw new PlatformSimError('PSIM_OPTION_INVALID', `option signingKeys: ${(e as Error).message}`);
  }
  const extra = {
    client: [...(await certificatesOption('clientCA', options.clientCA)), ...(await certificatesOption('clusterSigning.certificate', options.clusterSigning?.certificate))],
    requestHeader: await certificatesOption('requestHeader.clientCA', options.requestHeader?.clientCA),
  };
  const roots = async (): Promise<TrustRoots> => ({ client: [(await ca()).certificate, ...extra.client], requestHeader: extra.requestHeader });
  const time = (name: string, t: string | undefined): number | undefined => {
    if (t === undefined) return undefined;
    const v = parseInstant(t);
    if (v === null) throw new PlatformSimError('PSIM_OPTION_INVALID', `issueClientCertificate: ${name} "${t}" is not an RFC 3339 time`);
    return v;
  };
  let signingCa: () => Promise<SigningCa> = async () => {
    const c = await ca();
    return { certificate: c.certificate, privateKey: c.keys.privateKey };
  };
  let signingCaNotAfter = seededCaNotAfter(o.start);
  if (options.clusterSigning !== undefined) {
    let given: SigningCa;
    try {
      given = await (await x509Edge()).importSigningCa(options.clusterSigning.certificate, options.clusterSigning.privateKey);
    } catch (e) {
      throw new PlatformSimError('PSIM_OPTION_INVALID', `option clusterSigning: ${(e as Error).message}`);
    }
    signingCa = () => Promise.resolve(given);
    signingCaNotAfter = given.certificate.notAfter.getTime();
  }
  return {
    keys: keys.map((k) => ({ kid: k.kid, alg: k.alg, jwk: k.jwk })),
    signingCaNotAfter,
    resolver: createFactResolver(keys, roots, { ca: signingCa, seed: o.seed }),
    caPem: async () => (await ca()).pem,
    createCertificateRequest: async (spec) => (await x509Edge()).createCertificateRequest(o.seed, spec),
    issueClientCertificate: async (req: ClientCertificateRequest) => {
      const notBefore = time('notBefore', req.notBefore);
      const notAfter = time('notAfter', req.notAfter);
      return (await x509Edge()).issueClientCertificate(await ca(), o.seed, {
        user: req.user,
        ...(req.groups === undefined ? {} : { groups: req.groups }),
        ...(req.name === undefined ? {} : { name: req.name }),
        ...(notBefore === undefined ? {} : { notBefore }),
        ...(notAfter === undefined ? {} : { notAfter }),
      });
    },
  };
}

export async function createSimulation(options: SimulationOptions = {}): Promise<Simulation> {
  return new Simulation(options, await edgeFor(options));
}

export async function restoreSimulation(snapshot: Snapshot): Promise<Simulation> {
  if (snapshot?.format !== 'platform-sim/snapshot@1') throw new PlatformSimError('PSIM_SNAPSHOT_INVALID', 'not a platform-sim snapshot (format platform-sim/snapshot@1)');
  const read = readSavedWorldChecked(JSON.parse(JSON.stringify(snapshot.world ?? null)));
  if (!read.ok) throw new PlatformSimError('PSIM_SNAPSHOT_INVALID', `invalid snapshot: ${read.problem}`);
  return new Simulation(snapshot.options, await edgeFor(snapshot.options), read.world);
}
