/**
 * A launcher runs one analysis per worker thread and says how many in `/health` (`slots`): the dispatcher
 * fills every free slot, never more. A stand-in launcher over real HTTP holds each run until the test lets
 * it finish, so the number of jobs running on it at once is observable.
 */
import { createServer, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { computeModels, executors, jobs, nodes } from '../src/platform/db/schema/index.ts';
import { startTestApp, waitFor, type TestApp } from './test-app.ts';

let t: TestApp;
const held: ServerResponse[] = [];
let maxAtOnce = 0;
const fake = createServer((req, res) => {
  if (req.url === '/health') {
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        status: 'ok',
        version: 'fake',
        models: [{ name: 'porosity', versions: ['20241025', '20250101'] }],
        busy: held.length >= 2,
        running: held.length,
        slots: 2,
      }),
    );
    return;
  }
  if (req.url === '/run') {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(JSON.stringify({ type: 'started' }) + '\n');
      held.push(res);
      maxAtOnce = Math.max(maxAtOnce, held.length);
    });
    return;
  }
  res.writeHead(404).end();
});

beforeAll(async () => {
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', () => r()));
  t = await startTestApp();
  const [node] = await t.db.insert(nodes).values({ name: 'fake', ip: '127.0.0.1', description: 'stand-in launcher' }).returning();
  await t.db.insert(executors).values({ nodeId: node.id, port: (fake.address() as { port: number }).port, version: 'fake' });
});
afterAll(async () => {
  for (const r of held) r.destroy();
  await t?.close();
  fake.close();
});

describe('dispatching to a launcher with several slots', () => {
  it('runs as many jobs at once as the launcher has slots, then the rest as slots free up', async () => {
    const u = await t.signupVerified();
    const form = new FormData();
    for (let i = 0; i < 3; i++) {
      const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10 * i, g: 20, b: 30 } } })
        .png()
        .toBuffer();
      form.append('files', new Blob([png]), `s${i}.png`);
    }
    const images = (await u.client.request('POST', '/api/images', { form })).body as Array<{ id: string }>;
    const [model] = await t.db.select().from(computeModels).where(eq(computeModels.internalName, 'porosity'));
    const created = (await u.client.post('/api/jobs', { imageIds: images.map((i) => i.id), modelIds: [model.id] })).body as Array<{ id: string }>;
    expect(created).toHaveLength(3);

    await t.app.ctx.dispatcher.checkHealth();
    t.app.ctx.dispatcher.wake();
    await waitFor(async () => held.length === 2);
    // the third waits for a free slot
    await new Promise((r) => setTimeout(r, 300));
    expect(held).toHaveLength(2);
    expect(
      await t.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.ownerId, u.id), eq(jobs.status, 'NEW'))),
    ).toHaveLength(1);

    const finish = (res: ServerResponse) => res.end(JSON.stringify({ type: 'result', items: [], measurements: { poreCount: 0 }, files: [] }) + '\n');
    finish(held.shift()!);
    await waitFor(async () => held.length === 2);
    finish(held.shift()!);
    finish(held.shift()!);
    await waitFor(
      async () =>
        (
          await t.db
            .select()
            .from(jobs)
            .where(and(eq(jobs.ownerId, u.id), eq(jobs.status, 'FINISHED')))
        ).length === 3,
    );
    expect(maxAtOnce).toBe(2);
  });
});
