/**
 * Shared steps of the identity tests: service accounts, pods, tokens, reviews.
 */
import type { Simulation } from '../../../src/index.ts';
import type { Body } from '../../helpers.ts';

export const tokenPath = (sa: string, ns = 'default'): string => `/api/v1/namespaces/${ns}/serviceaccounts/${sa}/token`;
export const reviewPath = '/apis/authentication.platform.io/v1/tokenreviews';

export async function requestToken(s: Simulation, sa: string, spec: Body = {}, ns = 'default') {
  return s.request({ method: 'POST', path: tokenPath(sa, ns), body: { spec } });
}

export async function tokenFor(s: Simulation, sa: string, spec: Body = {}, ns = 'default'): Promise<string> {
  const res = await requestToken(s, sa, spec, ns);
  if (res.status !== 201) throw new Error(`token request failed: ${JSON.stringify(res.body)}`);
  return (res.body as Body).status.token as string;
}

export async function review(s: Simulation, token: string, audiences?: string[]): Promise<Body> {
  const res = await s.request({ method: 'POST', path: reviewPath, body: { spec: { token, ...(audiences === undefined ? {} : { audiences }) } } });
  if (res.status !== 201) throw new Error(`review failed: ${JSON.stringify(res.body)}`);
  return (res.body as Body).status as Body;
}

export function claimsOf(token: string): Body {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Body;
}

export function headerOf(token: string): Body {
  return JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')) as Body;
}

export async function createPod(s: Simulation, name: string, extraSpec: Body = {}, ns = 'default') {
  return s.request({ method: 'POST', path: `/api/v1/namespaces/${ns}/pods`, body: { metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...extraSpec } } });
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
