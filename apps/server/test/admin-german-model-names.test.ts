/**
 * Issue 26 item 8: German back-office screens name models in German. The admin jobs list, the admin job detail
 * and the model short list (the Jobs page's Model filter) answer the German name staff set (`displayNameDe`)
 * beside the display name, so the web names the model in the reader's language (apps/web/src/lib/modelName.ts);
 * the jobs report, written on the server, names it in the report's language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { adminJobsApi, computeModelsApi, type AdminJobDetail, type AdminJobsPage, type ModelShort } from '@lamella/contracts';
import { endpointUrl } from '../../web/src/api/url.ts';
import { computeModels, images, jobs, users } from '../src/platform/db/schema/index.ts';
import { startTestApp, type TestApp } from './test-app.ts';
import { factories, type TestUser } from './factories.ts';

let t: TestApp;
let admin: TestUser;
let jobId = '';
let plainJobId = '';
let ownerId = '';
const TAG = `de-names-${Date.now()}`;

beforeAll(async () => {
  t = await startTestApp();
  const f = factories(t);
  admin = await f.admin();
  await t.db.update(users).set({ csvDecimalSeparator: 'dot', language: 'en' }).where(eq(users.id, admin.id));
  const owner = await f.user({ fields: { name: 'Greta', surname: 'German' } });
  ownerId = owner.id;
  const [named, plain] = await t.db
    .insert(computeModels)
    .values([
      { internalName: `${TAG}-a`, routingPath: '/dea', storagePath: 'dea', displayName: 'Hardness map', displayNameDe: 'Härtekarte', version: '1' },
      { internalName: `${TAG}-b`, routingPath: '/deb', storagePath: 'deb', displayName: 'Plain model', version: '1' },
    ])
    .returning();
  const [img] = await t.db
    .insert(images)
    .values({
      ownerId: owner.id,
      orginalFilename: `${TAG}.png`,
      filename: `${TAG}.stored`,
      sha256: TAG,
      format: 'png',
      width: 8,
      height: 8,
      size: 10,
    })
    .returning();
  const insert = async (modelId: string) =>
    (
      await t.db
        .insert(jobs)
        .values({ ownerId: owner.id, imageId: img.id, modelId, modelVersion: '1', status: 'FINISHED', source: 'WEB' })
        .returning()
    )[0].id;
  jobId = await insert(named.id);
  plainJobId = await insert(plain.id);
});
afterAll(() => t?.close());

describe('admin jobs answer the German model name', () => {
  it('GET /admin/jobs: each row has model.displayNameDe (null when staff set none)', async () => {
    const res = await admin.client.get<AdminJobsPage>(endpointUrl(adminJobsApi.list, { query: { userId: ownerId, columns: ['model'] } }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = new Map(res.body.data.map((r) => [r.id, r]));
    expect(rows.get(jobId)?.model).toMatchObject({ displayName: 'Hardness map', displayNameDe: 'Härtekarte', name: `${TAG}-a` });
    expect(rows.get(plainJobId)?.model).toMatchObject({ displayName: 'Plain model', displayNameDe: null });
  });

  it('GET /admin/jobs/:id: the detail has model.displayNameDe', async () => {
    const res = await admin.client.get<AdminJobDetail>(endpointUrl(adminJobsApi.get, { params: { id: jobId } }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.model).toMatchObject({ displayName: 'Hardness map', displayNameDe: 'Härtekarte', currentVersion: '1' });
  });

  it('GET /admin/compute-models/list (the Model filter) has displayNameDe', async () => {
    const res = await admin.client.get<ModelShort[]>(endpointUrl(computeModelsApi.short, {}));
    expect(res.status).toBe(200);
    expect(res.body.find((m) => m.name === `${TAG}-a`)).toMatchObject({ displayName: 'Hardness map', displayNameDe: 'Härtekarte' });
    expect(res.body.find((m) => m.name === `${TAG}-b`)).toMatchObject({ displayNameDe: null });
  });

  it('GET /admin/jobs/report names the model in the report language (German: Härtekarte)', async () => {
    const url = endpointUrl(adminJobsApi.report, { query: { format: 'csv', userId: ownerId } });
    const reportIn = async (language: 'en' | 'de') => {
      // The report's language is the reader's (requestLanguage: the account's language here).
      await t.db.update(users).set({ language }).where(eq(users.id, admin.id));
      const res = await admin.client.get(url);
      expect(res.status, res.buffer.toString('utf8')).toBe(200);
      return res.buffer.toString('utf8');
    };
    const line = (text: string, id: string) => text.split('\n').find((l) => l.includes(id)) ?? '';
    const en = await reportIn('en');
    expect(line(en, jobId)).toContain('Hardness map');
    const de = await reportIn('de');
    expect(line(de, jobId)).toContain('Härtekarte');
    expect(line(de, plainJobId)).toContain('Plain model');
  });
});
