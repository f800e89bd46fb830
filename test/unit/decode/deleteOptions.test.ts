/**
 * DeleteOptions as kube-apiserver reads them: a body is decoded with Go's type errors (400), the
 * query only when there is no body, its integers as strconv.ParseInt reads them (400), and
 * ValidateDeleteOptions' causes together in one 422. A refused delete changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, type Simulation } from '../../../src/index.ts';

const sas = '/api/v1/namespaces/default/serviceaccounts';
const json = { 'content-type': 'application/json' };

async function withAccount(): Promise<{ s: Simulation; rv: string }> {
  const s = await createSimulation({ seed: 1, settle: 'manual', nodeAgent: false });
  const created = s.requestSync({ method: 'POST', path: sas, body: { metadata: { name: 'a' } } });
  return { s, rv: created.body.metadata.resourceVersion };
}

/** DELETE of the account, `body` sent as it is when given. */
const del = (s: Simulation, query = '', body?: string) => s.requestSync({ method: 'DELETE', path: `${sas}/a${query}`, ...(body === undefined ? {} : { headers: json, body }) });

/** The answer of a refused delete, after checking that the account is untouched. */
function refused(s: Simulation, rv: string, query: string, body?: string) {
  const res = del(s, query, body);
  const after = s.requestSync({ method: 'GET', path: `${sas}/a` });
  expect([after.status, after.body.metadata.resourceVersion, after.body.metadata.deletionTimestamp]).toEqual([200, rv, undefined]);
  return { status: res.status, reason: res.body.reason, message: res.body.message, causes: res.body.details?.causes };
}

const badRequest = (message: string) => ({ status: 400, reason: 'BadRequest', message, causes: undefined });

describe('a DeleteOptions body', () => {
  it('refuses values its Go types cannot hold with the decoder message', async () => {
    const { s, rv } = await withAccount();
    const struct = (field: string, type: string, value = 'number') => badRequest(`json: cannot unmarshal ${value} into Go struct field ${field} of type ${type}`);
    expect(refused(s, rv, '', '{"gracePeriodSeconds":1.5}')).toEqual(struct('DeleteOptions.gracePeriodSeconds', 'int64', 'number 1.5'));
    expect(refused(s, rv, '', '{"gracePeriodSeconds":"5"}')).toEqual(struct('DeleteOptions.gracePeriodSeconds', 'int64', 'string'));
    expect(refused(s, rv, '', '{"orphanDependents":"yes"}')).toEqual(struct('DeleteOptions.orphanDependents', 'bool', 'string'));
    expect(refused(s, rv, '', '{"preconditions":{"uid":5}}')).toEqual(struct('Preconditions.preconditions.uid', 'types.UID'));
    expect(refused(s, rv, '', '{"propagationPolicy":true}')).toEqual(struct('DeleteOptions.propagationPolicy', 'v1.DeletionPropagation', 'bool'));
    expect(refused(s, rv, '', '{"dryRun":"All"}')).toEqual(struct('DeleteOptions.dryRun', '[]string', 'string'));
  });

  it('refuses a body the serializer cannot read apiVersion and kind from', async () => {
    const { s, rv } = await withAccount();
    expect(refused(s, rv, '', '{"gracePeriodSeconds":')).toEqual(badRequest("couldn't get version/kind; json parse error: unexpected end of JSON input"));
    expect(refused(s, rv, '', ' ')).toEqual(badRequest("couldn't get version/kind; json parse error: unexpected end of JSON input"));
    expect(refused(s, rv, '', '[1]')).toEqual(
      badRequest('couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }'),
    );
    expect(refused(s, rv, '', '{"Kind":5}')).toEqual(badRequest("couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string"));
  });

  it('answers a bad propagationPolicy or dryRun with every cause in one 422', async () => {
    const { s, rv } = await withAccount();
    const both = refused(s, rv, '', '{"orphanDependents":true,"propagationPolicy":"Bogus","dryRun":["All","Bogus"]}');
    expect(both).toMatchObject({ status: 422, reason: 'Invalid' });
    expect(both.message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: [propagationPolicy: Invalid value: "Bogus": orphanDependents and deletionPropagation cannot be both set, propagationPolicy: Unsupported value: "Bogus": supported values: "Foreground", "Background", "Orphan", "nil", dryRun: Unsupported value: ["All","Bogus"]: supported values: "All"]',
    );
    expect(both.causes.map((c: { reason: string; field: string }) => `${c.field} ${c.reason}`)).toEqual(['propagationPolicy FieldValueInvalid', 'propagationPolicy FieldValueNotSupported', 'dryRun FieldValueNotSupported']);
    // A null element of dryRun is "", which is not "All".
    expect(refused(s, rv, '', '{"dryRun":[null]}').message).toBe('DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: [""]: supported values: "All"');
  });

  it('is the only source of options when sent: the query is not read, dryRun included', async () => {
    const { s } = await withAccount();
    const res = del(s, '?dryRun=All&gracePeriodSeconds=x&propagationPolicy=Bogus', '{}');
    expect(res.status).toBe(200);
    expect(s.requestSync({ method: 'GET', path: `${sas}/a` }).status).toBe(404);
  });

  it('reads null as no options', async () => {
    const { s } = await withAccount();
    expect(del(s, '', 'null').status).toBe(200);
    expect(s.requestSync({ method: 'GET', path: `${sas}/a` }).status).toBe(404);
  });
});

describe('DeleteOptions in the query', () => {
  it('refuses an integer strconv.ParseInt cannot read with its error alone, an empty one too', async () => {
    const { s, rv } = await withAccount();
    expect(refused(s, rv, '?gracePeriodSeconds=x')).toEqual(badRequest('strconv.ParseInt: parsing "x": invalid syntax'));
    expect(refused(s, rv, '?gracePeriodSeconds=1.5')).toEqual(badRequest('strconv.ParseInt: parsing "1.5": invalid syntax'));
    expect(refused(s, rv, '?gracePeriodSeconds=')).toEqual(badRequest('strconv.ParseInt: parsing "": invalid syntax'));
    expect(refused(s, rv, '?gracePeriodSeconds=9223372036854775808')).toEqual(badRequest('strconv.ParseInt: parsing "9223372036854775808": value out of range'));
  });

  it('answers a bad propagationPolicy (an empty one too) or dryRun with a 422', async () => {
    const { s, rv } = await withAccount();
    const policy = (value: string) => `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "${value}": supported values: "Foreground", "Background", "Orphan", "nil"`;
    expect(refused(s, rv, '?propagationPolicy=Bogus')).toMatchObject({ status: 422, reason: 'Invalid', message: policy('Bogus') });
    expect(refused(s, rv, '?propagationPolicy=')).toMatchObject({ status: 422, reason: 'Invalid', message: policy('') });
    expect(refused(s, rv, '?dryRun=Bogus')).toMatchObject({ status: 422, reason: 'Invalid', message: 'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Bogus"]: supported values: "All"' });
    expect(refused(s, rv, '?orphanDependents=true&propagationPolicy=Orphan').message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
    );
  });

  it('reads orphanDependents as true unless it is 0 or false in any case', async () => {
    const orphaned = async (value: string) => {
      const { s } = await withAccount();
      const res = del(s, `?orphanDependents=${value}`);
      return res.body.metadata?.finalizers ?? [];
    };
    expect(await orphaned('yes')).toEqual(['orphan']);
    expect(await orphaned('')).toEqual(['orphan']);
    expect(await orphaned('FALSE')).toEqual([]);
    expect(await orphaned('0')).toEqual([]);
  });

  it('reads uid and resourceVersion as preconditions', async () => {
    const { s, rv } = await withAccount();
    const res = refused(s, rv, '?uid=not-it');
    expect([res.status, res.reason]).toEqual([409, 'Conflict']);
    expect(res.message).toMatch(/the UID in the precondition \(not-it\) does not match the UID in record/);
    expect(refused(s, rv, '?resourceVersion=1').message).toMatch(/the ResourceVersion in the precondition \(1\) does not match the ResourceVersion in record/);
  });

  it('reads deletecollection ListOptions before its DeleteOptions', async () => {
    const { s } = await withAccount();
    const res = s.requestSync({ method: 'DELETE', path: `${sas}?limit=x&gracePeriodSeconds=y` });
    expect([res.status, res.body.message]).toEqual([400, expect.stringContaining('parsing "x"')]);
  });
});

describe('a negative grace period', () => {
  it('is one second, as the registry makes it', async () => {
    const s = await createSimulation({ seed: 1, settle: 'manual', nodeAgent: false });
    const pods = '/api/v1/namespaces/default/pods';
    s.requestSync({ method: 'POST', path: pods, body: { metadata: { name: 'p' }, spec: { nodeName: 'node-1', containers: [{ name: 'a', image: 'b' }] } } });
    const res = s.requestSync({ method: 'DELETE', path: `${pods}/p`, body: { gracePeriodSeconds: -5 } });
    expect([res.status, res.body.metadata.deletionGracePeriodSeconds]).toEqual([200, 1]);
  });
});
