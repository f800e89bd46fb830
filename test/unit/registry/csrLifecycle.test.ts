/** The CSR lifecycle table: phases of stored requests and what the table allows. */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/api/meta.ts';
import {
  allowedMoves,
  canReach,
  cleanerTimers,
  decisionConditions,
  exclusivePairs,
  markConditions,
  phaseOf,
  signerVerbFor,
} from '../../../src/registry/certificates/csr/lifecycle.ts';

const csr = (status: object): KubeObject => ({ metadata: { name: 'c' }, spec: {}, status }) as unknown as KubeObject;
const cond = (type: string, status = 'True') => ({ type, status });

describe('csr lifecycle', () => {
  it('names the phase of a request from its marks', () => {
    expect(phaseOf(undefined)).toBe('Gone');
    expect(phaseOf(csr({}))).toBe('Pending');
    expect(phaseOf(csr({ conditions: [cond('Failed')] }))).toBe('Pending');
    expect(phaseOf(csr({ conditions: [cond('Approved')] }))).toBe('Approved');
    expect(phaseOf(csr({ conditions: [cond('Approved'), cond('Failed', 'False')] }))).toBe('Approved');
    expect(phaseOf(csr({ conditions: [cond('Approved'), { type: 'Failed' }] }))).toBe('Failed');
    expect(phaseOf(csr({ conditions: [cond('Approved')], certificate: 'QQ==' }))).toBe('Issued');
    expect(phaseOf(csr({ conditions: [cond('Denied'), cond('Failed')] }))).toBe('Denied');
  });

  it('derives the rules the validation and the checker enforce', () => {
    expect(markConditions).toEqual(['Approved', 'Denied', 'Failed']);
    expect(decisionConditions).toEqual(['Approved', 'Denied']);
    expect(exclusivePairs).toEqual([['Approved', 'Denied']]);
    expect(signerVerbFor('approval')).toBe('approve');
    expect(signerVerbFor('status')).toBe('sign');
    expect(cleanerTimers.map((t) => t.since)).toEqual(['creation', 'Denied', 'Failed', 'Approved', 'certificate expiry']);
  });

  it('allows only the moves of the table', () => {
    expect(allowedMoves('Pending', 'Approved', 'approval').map((m) => m.actor)).toEqual(['user', 'csr-approver']);
    expect(allowedMoves('Pending', 'Approved', 'status')).toEqual([]);
    expect(allowedMoves('Approved', 'Issued', 'status').map((m) => m.actor)).toEqual(['csr-signer', 'user']);
    expect(canReach('Pending', 'Issued')).toBe(true);
    expect(canReach('Denied', 'Approved')).toBe(false);
    expect(canReach('Issued', 'Failed')).toBe(false);
    expect(canReach('Approved', 'Pending')).toBe(false);
  });
});
