/**
 * Port syntax of Services and containers, with apimachinery's messages (IsValidPortName and
 * IsValidPortNum in pkg/util/validation/validation.go): IANA service names and numbers 1–65535.
 */
import { utf8Length } from './names.ts';

export const portNumberMessage = 'must be between 1 and 65535, inclusive';

export function portNumberErrors(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : [portNumberMessage];
}

export function portNameErrors(port: string): string[] {
  const errs: string[] = [];
  if (utf8Length(port) > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}
