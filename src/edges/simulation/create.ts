/**
 * `createSimulation` and `restoreSimulation`: the async edge that imports keys and certificates
 * (WebCrypto, jose, @peculiar/x509 — no `node:` imports, so this runs in browsers too) and hands
 * the pure simulation what it needs.
 */
import { resolveOptions, PlatformSimError, type SimulationOptions } from '../../sim/options.ts';
import { Simulation, type ClientCertificateRequest, type SimulationEdge, type Snapshot } from './simulation.ts';
import type { World } from '../../store/world.ts';
import { parseInstant } from '../../core/duration.ts';
import { clusterCa, createCertificateRequest, importSigningCa, issueClientCertificate } from '../crypto/clusterCa.ts';
import { createFactResolver, parseCertificates } from '../crypto/factResolver.ts';
import { serviceAccountKeys } from '../crypto/serviceAccountKeys.ts';

function certificatesOption(name: string, pem: string | undefined): ReturnType<typeof parseCertificates> {
  if (pem === undefined) return [];
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
 * never change. Bounded: past the bound it starts over. A failure is not kept.
 */
const material = new Map<string, Promise<unknown>>();
const materialMax = 64;

function shared<T>(key: string, make: () => Promise<T>): Promise<T> {
  let p = material.get(key) as Promise<T> | undefined;
  if (p === undefined) {
    if (material.size >= materialMax) material.clear();
    p = make();
    material.set(key, p);
    p.catch(() => material.delete(key));
  }
  return p;
}

async function edgeFor(options: SimulationOptions): Promise<SimulationEdge> {
  const o = resolveOptions(options);
  const ca = await shared(JSON.stringify(['ca', o.seed, o.start]), () => clusterCa(o.seed, o.start));
  let keys;
  try {
    keys = await shared(JSON.stringify(['keys', o.seed, options.signingKeys ?? null]), () => serviceAccountKeys(o.seed, options.signingKeys));
  } catch (e) {
    throw new PlatformSimError('PSIM_OPTION_INVALID', `option signingKeys: ${(e as Error).message}`);
  }
  const roots = {
    client: [ca.certificate, ...certificatesOption('clientCA', options.clientCA), ...certificatesOption('clusterSigning.certificate', options.clusterSigning?.certificate)],
    requestHeader: certificatesOption('requestHeader.clientCA', options.requestHeader?.clientCA),
  };
  const time = (name: string, t: string | undefined): number | undefined => {
    if (t === undefined) return undefined;
    const v = parseInstant(t);
    if (v === null) throw new PlatformSimError('PSIM_OPTION_INVALID', `issueClientCertificate: ${name} "${t}" is not an RFC 3339 time`);
    return v;
  };
  let signingCa: { certificate: typeof ca.certificate; privateKey: CryptoKey } = { certificate: ca.certificate, privateKey: ca.keys.privateKey };
  if (options.clusterSigning !== undefined) {
    try {
      signingCa = await importSigningCa(options.clusterSigning.certificate, options.clusterSigning.privateKey);
    } catch (e) {
      throw new PlatformSimError('PSIM_OPTION_INVALID', `option clusterSigning: ${(e as Error).message}`);
    }
  }
  return {
    keys: keys.map((k) => ({ kid: k.kid, alg: k.alg, jwk: k.jwk })),
    signingCaNotAfter: signingCa.certificate.notAfter.getTime(),
    resolver: createFactResolver(keys, roots, { ca: signingCa, seed: o.seed }),
    caPem: ca.pem,
    createCertificateRequest: (spec) => createCertificateRequest(o.seed, spec),
    issueClientCertificate: (req: ClientCertificateRequest) => {
      const notBefore = time('notBefore', req.notBefore);
      const notAfter = time('notAfter', req.notAfter);
      return issueClientCertificate(ca, o.seed, {
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
  if (snapshot?.format !== 'platform-sim/snapshot@1' || snapshot.world?.format !== 'platform-sim/world@1') {
    throw new PlatformSimError('PSIM_SNAPSHOT_INVALID', 'not a platform-sim snapshot (format platform-sim/snapshot@1)');
  }
  return new Simulation(snapshot.options, await edgeFor(snapshot.options), JSON.parse(JSON.stringify(snapshot.world)) as World);
}
