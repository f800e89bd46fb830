/**
 * IPv4 addresses and CIDRs with apimachinery's strict messages (IsValidIP, IsValidCIDR in
 * pkg/util/validation/ip.go). The simulated cluster is single-stack IPv4: an IPv6 value is
 * accepted as syntax only when it looks like one (hex groups and colons), without the finer
 * canonical-form checks.
 */
const octets = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const ipv6Like = /^[0-9a-fA-F:.]+$/;

export const invalidIPMessage = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
export const invalidCIDRMessage = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

export type Parsed<T> = { ok: true; value: T; leadingZeros: boolean } | { ok: false };

/** The address as a 32-bit unsigned number. */
export function parseIPv4(text: string): Parsed<number> {
  const m = octets.exec(text);
  if (m === null) return { ok: false };
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return { ok: false };
  const leadingZeros = m.slice(1).some((p) => p.length > 1 && p.startsWith('0'));
  return { ok: true, value: parts.reduce((acc, p) => acc * 256 + p, 0), leadingZeros };
}

export function formatIPv4(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

export function isIPv6Like(text: string): boolean {
  return text.includes(':') && ipv6Like.test(text);
}

/** IsValidIP messages for one value (empty when valid). */
export function ipErrors(text: string): string[] {
  if (isIPv6Like(text)) return [];
  const ip = parseIPv4(text);
  if (!ip.ok) return [invalidIPMessage];
  return ip.leadingZeros ? ['must not have leading 0s'] : [];
}

/** IsValidCIDR messages for one value (empty when valid). */
export function cidrErrors(text: string): string[] {
  const slash = text.indexOf('/');
  if (slash < 0) return [invalidCIDRMessage];
  const addr = text.slice(0, slash);
  const prefixText = text.slice(slash + 1);
  if (isIPv6Like(addr) && /^\d{1,3}$/.test(prefixText) && Number(prefixText) <= 128) return [];
  const ip = parseIPv4(addr);
  if (!ip.ok || !/^\d{1,2}$/.test(prefixText) || Number(prefixText) > 32) return [invalidCIDRMessage];
  if (ip.leadingZeros || (prefixText.length > 1 && prefixText.startsWith('0'))) return ['must not have leading 0s in IP or prefix length'];
  const hostBits = 32 - Number(prefixText);
  return ip.value % 2 ** hostBits === 0 ? [] : ['must not have bits set beyond the prefix length'];
}
