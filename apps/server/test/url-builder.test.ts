/**
 * Issues 24 and 26: the web client's one URL builder (apps/web/src/api/url.ts) against the server's own parser.
 * Every endpoint of packages/contracts is registered on a Fastify with the app's query and validation options,
 * answering what it parsed; each URL built from sample params and query must come back as exactly those values,
 * typed as the schemas say (arrays stay arrays, also with one item). Then the shapes that broke go through the
 * real app: the admin jobs filters, the results export with one job and a format, the users XLSX.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminJobsApi, adminUsersApi, jobsApi, type EndpointDef } from '@lamella/contracts';
import { endpointUrl } from '../../web/src/api/url.ts';
import { endpoints, sampleObject, type Schema } from '../../web/src/api/url-samples.ts';

let echo: FastifyInstance;
const registered = new Set<string>();
beforeAll(async () => {
  // The options of buildApp (app.ts) that decide how a URL is read: router and validator.
  echo = Fastify({
    routerOptions: { ignoreTrailingSlash: true },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', allErrors: true } },
  });
  for (const [, ep] of endpoints) {
    const key = `${ep.method} ${ep.path}`;
    if (registered.has(key)) continue;
    registered.add(key);
    echo.route({
      method: ep.method,
      url: ep.path,
      schema: { ...(ep.params ? { params: ep.params } : {}), ...(ep.querystring ? { querystring: ep.querystring } : {}) },
      handler: async (request) => ({ params: request.params, query: request.query }),
    });
  }
  await echo.ready();
});
afterAll(() => echo?.close());

describe('every endpoint: the built URL is read back by Fastify as the given params and query', () => {
  it.each(endpoints)('%s', async (_name, ep: EndpointDef) => {
    const params = sampleObject(ep.params as Schema | undefined) ?? {};
    const query = sampleObject(ep.querystring as Schema | undefined) ?? {};
    const url = endpointUrl(ep, { params, query } as never).replace(/^\/api/, '');
    const res = await echo.inject({ method: ep.method, url });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    expect(res.json()).toEqual({ params, query });
  });

  it('one job id stays an array of one (the results export of a single job)', async () => {
    const id = '0b6c3f1e-2d4a-4c8e-9f10-1a2b3c4d5e6f';
    const res = await echo.inject({
      method: 'GET',
      url: endpointUrl(jobsApi.export, { query: { jobsIds: [id], format: 'xlsx' } }).replace(/^\/api/, ''),
    });
    expect(res.json()).toEqual({ params: {}, query: { jobsIds: [id], format: 'xlsx' } });
  });

  it('the admin jobs list keeps its first filter and takes a model and a user id next to the columns', async () => {
    const query = {
      columns: ['createdAt', 'owner', 'company', 'status', 'source', 'model'],
      deleted: 'ALL',
      modelId: '0b6c3f1e-2d4a-4c8e-9f10-1a2b3c4d5e6f',
      userId: 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b',
      pageSize: 100,
    };
    const res = await echo.inject({ method: 'GET', url: endpointUrl(adminJobsApi.list, { query }).replace(/^\/api/, '') });
    expect(res.statusCode).toBe(200);
    expect(res.json().query).toEqual(query);
  });

  it('the users report keeps `columns[]` and the xlsx format apart', async () => {
    const res = await echo.inject({
      method: 'GET',
      url: endpointUrl(adminUsersApi.csv, { query: { 'columns[]': ['id', 'email'], format: 'xlsx' } }).replace(/^\/api/, ''),
    });
    expect(res.json().query).toEqual({ 'columns[]': ['id', 'email'], format: 'xlsx' });
  });
});
