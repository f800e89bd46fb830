/**
 * The one place @peculiar/x509 is loaded: it needs the reflect polyfill first and a WebCrypto
 * provider (the global one, so this also works in browsers).
 */
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(globalThis.crypto);

export { x509 };

export function pemBlocks(text: string, type: string): string[] {
  const re = new RegExp(`-----BEGIN ${type}-----[\\s\\S]*?-----END ${type}-----`, 'g');
  return text.match(re) ?? [];
}

export function toPem(der: ArrayBuffer | Uint8Array, type: string): string {
  const b = der instanceof Uint8Array ? der : new Uint8Array(der);
  let bin = '';
  for (const x of b) bin += String.fromCharCode(x);
  const body = btoa(bin).replace(/.{64}/g, '$&\n').replace(/\n$/, '');
  return `-----BEGIN ${type}-----\n${body}\n-----END ${type}-----\n`;
}
