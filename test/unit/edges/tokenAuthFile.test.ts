/** The token-auth file format of kube-apiserver, and a static user calling the API with it. */
import { describe, expect, it } from 'vitest';
import { parseTokenAuthCsv } from '../../../src/edges/fs/tokenAuthFile.ts';
import { sim } from '../../helpers.ts';

describe('token auth file', () => {
  it('parses records with quoted group lists', () => {
    expect(parseTokenAuthCsv('# comment\nt1,alice,u1,"dev,ops"\n\nt2,bob,,qa\nt3,carol\n')).toEqual({
      ok: true,
      users: [
        { token: 't1', user: 'alice', uid: 'u1', groups: ['dev', 'ops'] },
        { token: 't2', user: 'bob', groups: ['qa'] },
        { token: 't3', user: 'carol', groups: [] },
      ],
    });
    expect(parseTokenAuthCsv('justatoken\n').ok).toBe(false);
  });

  it('lets a static user authenticate with its bearer token', async () => {
    const parsed = parseTokenAuthCsv('t1,alice,u1,"dev,ops"\n');
    const s = await sim({ users: parsed.ok ? parsed.users : [] });
    const res = await s.request({ method: 'POST', path: '/apis/authentication.platform.io/v1/selfsubjectreviews', body: {}, headers: { authorization: 'Bearer t1' } });
    expect(res.status).toBe(201);
    expect((res.body as { status: unknown }).status).toEqual({ userInfo: { username: 'alice', uid: 'u1', groups: ['dev', 'ops', 'system:authenticated'] } });
  });
});
