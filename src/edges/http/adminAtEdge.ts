/**
 * Whether a request looks like an admin's before the simulation authenticates it: a bearer token
 * of a `system:masters` user, or a client certificate one of the server's CAs signed. The edge
 * reads a body before the simulation sees the request, so this decides who may send the one
 * large body there is (a world for `PUT /sim/v1/snapshot`, readBody.ts); everyone else is cut off
 * at the request limit. Not an authentication: the simulation still authenticates and authorizes.
 */
import type { IncomingMessage } from 'node:http';
import { X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import { decodePemBlocks } from '../../registry/certificates/pem.ts';

/** The certificates of a PEM bundle, found as Go's pem.Decode finds them (what does not parse is left out: the simulation judges it). */
function certificatesIn(pem: string): X509Certificate[] {
  return decodePemBlocks(pem).flatMap((block) => {
    if (block.type !== 'CERTIFICATE') return [];
    try {
      return [new X509Certificate(block.bytes)];
    } catch {
      return [];
    }
  });
}

export function adminAtEdge(users: readonly { readonly token: string; readonly groups?: readonly string[] }[], caPems: readonly string[]): (req: IncomingMessage) => boolean {
  const masterTokens = new Set(users.filter((u) => (u.groups ?? []).includes('system:masters')).map((u) => u.token));
  const cas = caPems.flatMap(certificatesIn);
  return (req) => {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(String(req.headers['authorization'] ?? ''));
    if (bearer !== null && masterTokens.has(bearer[1]!)) return true;
    // Signed by one of the CAs, checked here rather than taken from OpenSSL's verdict, which
    // judges dates on the wall clock (the simulation judges them at virtual time) and, once it
    // lets one error pass, reports only the last.
    const socket = req.socket as TLSSocket;
    if (socket.encrypted !== true || typeof socket.getPeerCertificate !== 'function') return false;
    const raw = socket.getPeerCertificate(false)?.raw;
    if (raw === undefined) return false;
    try {
      const leaf = new X509Certificate(raw);
      return cas.some((ca) => leaf.checkIssued(ca) && leaf.verify(ca.publicKey));
    } catch {
      return false;
    }
  };
}
