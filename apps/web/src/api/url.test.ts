import { describe, expect, it } from 'vitest';
import * as contracts from '@lamella/contracts';
import type { EndpointDef } from '@lamella/contracts';
import { UUIDS, endpoints, type sample, sampleObject, type Schema } from './url-samples';
import { apiUrl, endpointUrl, queryString, type QueryInput } from './url';

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Parses a built URL back: the path parameters (by the endpoint's pattern) and every query value as a list. */
function parseBack(ep: EndpointDef, url: string) {
  const u = new URL(url, 'http://lamella.test');
  const names: string[] = [];
  const pattern = escapeRe(ep.path).replace(/:(\w+)/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const m = new RegExp(`^/api${pattern}$`).exec(u.pathname);
  const params = m ? Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(m[i + 1])])) : null;
  const query: Record<string, string[]> = {};
  for (const k of new Set(u.searchParams.keys())) query[k] = u.searchParams.getAll(k);
  return { params, query };
}

const asStrings = (v: ReturnType<typeof sample>) => (Array.isArray(v) ? v.map(String) : [String(v)]);

describe('one URL builder for every endpoint of packages/contracts', () => {
  it('finds the endpoints (every domain of the contracts)', () => {
    expect(endpoints.length).toBeGreaterThan(150);
    expect(endpoints.map(([n]) => n)).toEqual(expect.arrayContaining(['adminJobsApi.list', 'jobsApi.export', 'adminUsersApi.csv', 'auditApi.list']));
  });

  it.each(endpoints)('%s: the built URL has one "?" and parses back to the given params and query', (_name, ep) => {
    const params = sampleObject(ep.params as Schema | undefined);
    const query = sampleObject(ep.querystring as Schema | undefined);
    const url = endpointUrl(ep, { params, query } as never);
    expect(url.split('?').length).toBeLessThanOrEqual(2);
    expect(url).not.toMatch(/[ #]/);
    const back = parseBack(ep, url);
    expect(back.params, `path of ${url}`).toEqual(params ? Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) : {});
    const expected = Object.fromEntries(Object.entries(query ?? {}).map(([k, v]) => [k, asStrings(v)]));
    expect(back.query, `query of ${url}`).toEqual(expected);
  });

  it.each(endpoints.filter(([, ep]) => ep.querystring))('%s: with no query the URL has no "?"', (_name, ep) => {
    const params = sampleObject(ep.params as Schema | undefined);
    expect(endpointUrl(ep, { params } as never)).not.toContain('?');
  });
});

describe('the shapes that broke (issues 24 and 26)', () => {
  it('admin jobs list: the columns array and every flat filter after one "?"', () => {
    const url = endpointUrl(contracts.adminJobsApi.list, {
      query: {
        columns: ['createdAt', 'owner', 'model'],
        startDate: '2026-01-01',
        deleted: 'ALL',
        modelId: UUIDS[0],
        userId: UUIDS[1],
        company: 'Acme & Söhne',
        pageSize: 100,
      },
    });
    expect(url.split('?')).toHaveLength(2);
    const back = parseBack(contracts.adminJobsApi.list, url).query;
    expect(back).toEqual({
      columns: ['createdAt', 'owner', 'model'],
      startDate: ['2026-01-01'],
      deleted: ['ALL'],
      modelId: [UUIDS[0]],
      userId: [UUIDS[1]],
      company: ['Acme & Söhne'],
      pageSize: ['100'],
    });
  });

  it('results export: one or several job ids and the format', () => {
    expect(endpointUrl(contracts.jobsApi.export, { query: { jobsIds: [UUIDS[0]], format: 'xlsx' } })).toBe(
      `/api/jobs/export?jobsIds=${UUIDS[0]}&format=xlsx`,
    );
    expect(endpointUrl(contracts.jobsApi.export, { query: { jobsIds: UUIDS, format: 'csv' } })).toBe(
      `/api/jobs/export?jobsIds=${UUIDS[0]}&jobsIds=${UUIDS[1]}&format=csv`,
    );
  });

  it('users report: `columns[]` repeated and the xlsx format', () => {
    const url = endpointUrl(contracts.adminUsersApi.csv, { query: { 'columns[]': ['id', 'email'], format: 'xlsx' } });
    expect(url).toBe('/api/admin/users2/csv?columns%5B%5D=id&columns%5B%5D=email&format=xlsx');
    expect(parseBack(contracts.adminUsersApi.csv, url).query).toEqual({ 'columns[]': ['id', 'email'], format: ['xlsx'] });
  });

  it('path parameters are encoded and a query follows them', () => {
    expect(endpointUrl(contracts.reportsApi.job, { params: { id: UUIDS[0] }, query: { format: 'pdf' } })).toBe(
      `/api/jobs/${UUIDS[0]}/report?format=pdf`,
    );
  });
});

describe('apiUrl and queryString', () => {
  it('leaves out undefined and null, and an empty array', () => {
    expect(queryString({ a: undefined, b: null, c: [], d: 0, e: false, f: '' })).toBe('d=0&e=false&f=');
    expect(apiUrl('/x', { a: undefined })).toBe('/api/x');
    expect(apiUrl('/x')).toBe('/api/x');
  });

  it('appends to a path that already carries a query with "&", never a second "?"', () => {
    expect(apiUrl('/x?a=1', { b: 2 })).toBe('/api/x?a=1&b=2');
    expect(apiUrl('/x?', { b: 2 })).toBe('/api/x?b=2');
    expect(apiUrl('/x?a=1&', { b: [1, 2] })).toBe('/api/x?a=1&b=1&b=2');
    expect(apiUrl('/x?a=1')).toBe('/api/x?a=1');
  });

  it('encodes spaces as %20 and keeps reserved characters out of the structure', () => {
    const q: QueryInput = { 'k y': 'a b+c&d=e?f#g%h' };
    const s = queryString(q);
    expect(s).toBe('k%20y=a%20b%2Bc%26d%3De%3Ff%23g%25h');
    expect(new URLSearchParams(s).get('k y')).toBe('a b+c&d=e?f#g%h');
  });
});
