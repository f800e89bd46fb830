/**
 * The one place @peculiar/x509 is loaded: it needs the reflect polyfill first and a WebCrypto
 * provider (the global one, so this also works in browsers).
 */
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { bytesToBase64 } from '../../core/base64.ts';

x509.cryptoProvider.set(globalThis.crypto);

export { x509 };

export function pemBlocks(text: string, type: string): string[] {
  const re = new RegExp(`-----BEGIN ${type}-----[\\s\\S]*?-----END ${type}-----`, 'g');
  return text.match(re) ?? [];
}

export function toPem(der: ArrayBuffer | Uint8Array, type: string): string {
  const body = bytesToBase64(der instanceof Uint8Array ? der : new Uint8Array(der)).replace(/.{64}/g, '$&\n').replace(/\n$/, '');
  return `-----BEGIN ${type}-----\n${body}\n-----END ${type}-----\n`;
}
