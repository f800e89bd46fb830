/** The CSR invariant checker fires on the states the API must never produce. */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/api/meta.ts';
import { csrDecisions } from '../../../src/sim/checkers/csrDecisions.ts';
import { putObject } from '../../../src/store/objects.ts';
import { sim } from '../../helpers.ts';

const csr = (status: object): KubeObject => ({ metadata: { name: 'c', uid: 'u1', resourceVersion: '1' }, spec: {}, status } as unknown as KubeObject);

describe('csr-decisions checker', () => {
  it('reports approved-and-denied, unapproved certificates and changed certificates', async () => {
    const w = (await sim()).world;
    const put = (o: KubeObject) => putObject(w, 'certificates/certificatesigningrequests', '', 'c', o);
    expect(csrDecisions.check(null, put(csr({ conditions: [{ type: 'Approved' }, { type: 'Denied' }] })))).toEqual(['c is both Approved and Denied']);
    expect(csrDecisions.check(null, put(csr({ certificate: 'QQ==' })))).toEqual(['c has a certificate without being approved']);
    const issued = put(csr({ conditions: [{ type: 'Approved' }], certificate: 'QQ==' }));
    expect(csrDecisions.check(issued, put(csr({ conditions: [{ type: 'Approved' }], certificate: 'Qg==' })))).toEqual(['c changed its issued certificate']);
    expect(csrDecisions.check(issued, issued)).toEqual([]);
  });
});
