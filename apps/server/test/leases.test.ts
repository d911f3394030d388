/**
 * Issue 9.1: a running job's lease is really renewed, and the launcher's lines are heartbeats. With a 1 s
 * lease, a job that runs several seconds on a real launcher process runs exactly once (one claim, one
 * attempt, on one launcher) and finishes; its heartbeat_at advances while it runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dispatcher } from '../src/modules/jobs/dispatcher.ts';
import { startTestApp, type TestApp } from './test-app.ts';
import { poresImage } from './synthetic.ts';
import { jobRow, porosityId, settled, shortLeaseDispatcher, upload } from './lease-helpers.ts';

// Half a second: the job (~2–5 s here) is then several leases long even on a fast, idle machine.
const LEASE_MS = 500;
let t: TestApp;
let dispatcher: Dispatcher;
let log: string[];
beforeAll(async () => {
  // Two launchers: a job whose lease ran out would be claimed again by the other one (attempts 2).
  t = await startTestApp({ launchers: 2 });
  await t.launchersReady();
  ({ dispatcher, log } = await shortLeaseDispatcher(t, LEASE_MS));
}, 180_000);
afterAll(async () => {
  await dispatcher?.stop();
  await t?.close();
});

describe('job leases (a 0.5 s lease)', () => {
  it('runs a job several leases long exactly once, renewing its lease from the heartbeats', async () => {
    const u = await t.signupVerified();
    const { png, truth } = await poresImage({ width: 5000, height: 3750, count: 400, r: 30, seed: 11 });
    const imageId = await upload(u.client, png, 'long.png');
    const [job] = (await u.client.post('/api/jobs', { imageIds: [imageId], modelIds: [await porosityId(t)] })).body;

    const executorsSeen = new Set<string>();
    const beats = new Set<number>();
    let expiredWhileRunning = 0;
    const watching = (async () => {
      for (;;) {
        const row = await jobRow(t, job.id);
        if (row.status === 'FINISHED' || row.status === 'FAILED') return;
        if (row.status === 'PENDING') {
          if (row.executorId) executorsSeen.add(row.executorId);
          if (row.heartbeatAt) beats.add(row.heartbeatAt.getTime());
          if (row.leaseUntil && row.leaseUntil.getTime() < Date.now() - 200) expiredWhileRunning += 1;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const done = await settled(u.client, job.id);
    await watching;
    expect(done.status).toBe('FINISHED');
    expect(done.result.measurements.poreCount).toBe(truth.poreCount);

    const row = await jobRow(t, job.id);
    expect(row.attempts).toBe(1);
    expect(executorsSeen.size).toBe(1);
    expect(row.executorId).toBe([...executorsSeen][0]);
    // several leases long, and the lease never ran out while it ran
    expect(row.finishedAt!.getTime() - row.startedAt!.getTime()).toBeGreaterThan(3 * LEASE_MS);
    expect(expiredWhileRunning).toBe(0);
    // the launcher's heartbeats were recorded as they came
    expect(beats.size).toBeGreaterThanOrEqual(3);
    expect(row.heartbeatAt).toBeInstanceOf(Date);
    expect(row.leaseUntil).toBeNull();
    expect(log.filter((m) => m.includes(job.id))).toEqual([]);
  }, 180_000);
});
