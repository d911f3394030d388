import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { Dispatcher } from '../src/modules/jobs/dispatcher.ts';
import { computeModels, jobs } from '../src/platform/db/schema/index.ts';
import { waitFor, type TestApp } from './test-app.ts';

/**
 * Replaces the test app's dispatcher by one with a short lease (JOB_LEASE_SECONDS as a test would set it),
 * so that a job of a few seconds is several leases long. The app's own dispatcher is stopped first: the
 * replacement is then the only one, and picks new jobs up by its 1 s poll.
 */
export async function shortLeaseDispatcher(t: TestApp, leaseMs: number) {
  await t.app.ctx.dispatcher.stop();
  const log: string[] = [];
  const dispatcher = new Dispatcher({
    db: t.db,
    storage: t.storage,
    notify: () => undefined,
    log: (m) => log.push(m),
    soleDispatcher: false,
    leaseMs,
  });
  await dispatcher.start();
  return { dispatcher, log };
}

export async function porosityId(t: TestApp): Promise<string> {
  const [{ id }] = await t.db.select({ id: computeModels.id }).from(computeModels).where(eq(computeModels.internalName, 'porosity'));
  return id;
}

export async function upload(client: ReturnType<TestApp['client']>, png: Buffer, name: string): Promise<string> {
  const form = new FormData();
  form.append('files', new Blob([png]), name);
  const res = await client.request('POST', '/api/images', { form });
  expect(res.status).toBe(200);
  return res.body[0].id;
}

export const jobRow = async (t: TestApp, id: string) => (await t.db.select().from(jobs).where(eq(jobs.id, id)))[0];

export const settled = (client: ReturnType<TestApp['client']>, id: string, timeoutMs = 120_000) =>
  waitFor(async () => {
    const res = await client.get(`/api/jobs/${id}`);
    return ['FINISHED', 'FAILED', 'CACHED'].includes(res.body.status) ? res.body : null;
  }, timeoutMs);
