/**
 * Header lines for the fuzzer: credentials (mostly the admin's bearer token, so that requests
 * reach deep; else none, junk, JWT-shaped junk), impersonation and front-proxy headers with keys
 * named like Object.prototype members, Accept values, and arbitrary extra lines.
 */
import fc from 'fast-check';
import { prototypeNames } from './bodies.ts';

export type Header = readonly [string, string];

export const accepts = ['application/json', 'application/yaml', '*/*', 'application/json;as=Table;v=v1;g=meta.k8s.io', 'application/json;as=Table;v=v1;g=meta.k8s.io;includeObject=Object', 'application/json;as=Table;v=v1;g=meta.k8s.io;includeObject=Bogus', 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io', 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList', 'application/vnd.kubernetes.protobuf', 'text/html', 'application/json;q=0', 'garbage', '', 'application/json;as=Table;v=v9;g=meta.k8s.io'];

const jwtLike = fc.tuple(fc.jsonValue({ maxDepth: 2 }), fc.jsonValue({ maxDepth: 2 }), fc.string({ maxLength: 20 })).map(([h, p, s]) => [JSON.stringify(h), JSON.stringify(p), s].map((x) => Buffer.from(x).toString('base64url')).join('.'));

export const headerName = fc.oneof(fc.constantFrom(...prototypeNames), fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,20}$/));
export const headerValue = fc.oneof(fc.constantFrom('', 'x', ...prototypeNames, 'é', '\u00ff', 'a, b', '"quoted"'), fc.stringMatching(/^[\x20-\x7e]{0,30}$/), fc.integer({ min: 100, max: 4000 }).map((n) => 'h'.repeat(n)));

/** Credentials: mostly the admin, else anything. */
export function credentials(adminToken: string): fc.Arbitrary<readonly Header[]> {
  const admin: Header = ['Authorization', `Bearer ${adminToken}`];
  return fc.oneof(
    { weight: 12, arbitrary: fc.constant<readonly Header[]>([admin]) },
    { weight: 1, arbitrary: fc.constant<readonly Header[]>([]) },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom('Bearer', 'Bearer ', 'Basic YTpi', 'bearer x', `Bearer ${adminToken} x`, 'Negotiate x'), fc.string({ maxLength: 40 }).map((t) => `Bearer ${t.replace(/[\r\n]/g, '')}`), jwtLike.map((t) => `Bearer ${t}`)).map((v): Header[] => [['Authorization', v]]) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom('jane', 'system:admin', 'system:anonymous', 'system:serviceaccount:default:default', 'system:serviceaccount:x', '', ...prototypeNames),
          fc.array(fc.constantFrom('system:masters', 'dev', '', ...prototypeNames), { maxLength: 2 }),
          fc.array(fc.tuple(fc.oneof(fc.constantFrom(...prototypeNames), fc.constantFrom('scopes', 'acme.com%2Fproject', '%zz', 'a%2', 'é')), headerValue), { maxLength: 2 }),
          fc.option(fc.constantFrom('uid-1', '', '__proto__'), { nil: undefined }),
        )
        .map(([user, groups, extras, uid]): Header[] => [admin, ['Impersonate-User', user], ...groups.map((g): Header => ['Impersonate-Group', g]), ...extras.map(([k, v]): Header => [`Impersonate-Extra-${k}`, v]), ...(uid === undefined ? [] : [['Impersonate-Uid', uid] as Header])]),
    },
    { weight: 1, arbitrary: fc.tuple(headerValue, fc.constantFrom(...prototypeNames)).map(([v, k]): Header[] => [admin, ['X-Remote-User', v], ['X-Remote-Group', k], [`X-Remote-Extra-${k}`, v]]) },
  );
}

/** A few more lines: anything, or the ones that change how a body is read. */
export const extraHeaders = fc.array(
  fc.oneof(fc.tuple(headerName, headerValue), fc.constantFrom<Header>(['Content-Type', 'application/json'], ['Content-Type', 'text/plain'], ['Accept', '*/*'], ['Content-Encoding', 'gzip'], ['Transfer-Encoding', 'gzip'], ['Expect', '100-continue'], ['If-None-Match', '"x"'], ['Content-Length', '3'], ['X-Forwarded-For', '1.2.3.4'])),
  { maxLength: 3 },
);
