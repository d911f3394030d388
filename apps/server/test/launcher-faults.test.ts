/**
 * Issue 9.2: a hung launcher is detected. A real launcher process frozen with SIGSTOP sends no heartbeat;
 * after a whole lease (1 s here) the dispatcher aborts the request and the job costs an attempt: it finishes
 * on the other launcher, or is FAILED after the retry limit with "LAUNCHER_UNAVAILABLE: … not responding …".
 * The frozen launcher's health fails, so executors.last_seen_at stops advancing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MAX_ATTEMPTS, type Dispatcher } from '../src/modules/jobs/dispatcher.ts';
import { executors } from '../src/platform/db/schema/index.ts';
import { ADMIN, startTestApp, waitFor, type TestApp } from './test-app.ts';
import { poresImage } from './synthetic.ts';
import { jobRow, porosityId, settled, shortLeaseDispatcher, upload } from './lease-helpers.ts';

const LEASE_MS = 1000;
let t: TestApp;
let dispatcher: Dispatcher;
let log: string[];
const frozen = new Set<number>();
const freeze = (pid: number) => {
  process.kill(pid, 'SIGSTOP');
  frozen.add(pid);
};
const thaw = (pid: number) => {
  try {
    process.kill(pid, 'SIGCONT');
  } catch {
    // already gone
  }
  frozen.delete(pid);
};

beforeAll(async () => {
  t = await startTestApp({ launchers: 2 });
  await t.launchersReady();
  ({ dispatcher, log } = await shortLeaseDispatcher(t, LEASE_MS));
}, 180_000);
afterEach(() => {
  for (const pid of [...frozen]) thaw(pid);
});
afterAll(async () => {
  for (const pid of [...frozen]) thaw(pid);
  await dispatcher?.stop();
  await t?.close();
});

const running = (id: string) =>
  waitFor(async () => {
    const row = await jobRow(t, id);
    // heartbeat_at is set once the launcher has taken the job (its `started` line)
    return row.status === 'PENDING' && row.executorId && row.heartbeatAt ? row : null;
  });

const lastSeen = async (executorId: string) => (await t.db.select().from(executors).where(eq(executors.id, executorId)))[0].lastSeenAt!.getTime();

describe('a frozen launcher (SIGSTOP)', () => {
  it('costs its job an attempt: the job finishes on the other launcher, and the frozen one stops being seen', async () => {
    const u = await t.signupVerified();
    const { png, truth } = await poresImage({ width: 4000, height: 3000, count: 300, r: 30, seed: 21 });
    const imageId = await upload(u.client, png, 'frozen.png');
    const [job] = (await u.client.post('/api/jobs', { imageIds: [imageId], modelIds: [await porosityId(t)] })).body;
    const first = await running(job.id);
    const pid = t.supervisor.pid(first.executorId!)!;
    expect(pid).toBeTruthy();
    const frozenAt = Date.now();
    freeze(pid);

    // given back to the queue within about a lease, and taken by the other launcher
    const moved = await waitFor(async () => {
      const row = await jobRow(t, job.id);
      return row.executorId !== first.executorId || row.status !== 'PENDING' ? row : null;
    }, 10_000);
    expect(Date.now() - frozenAt).toBeLessThan(5 * LEASE_MS);
    expect(['NEW', 'PENDING']).toContain(moved.status);
    expect(log.some((m) => m.includes(job.id) && /not responding/.test(m))).toBe(true);

    const done = await settled(u.client, job.id);
    expect(done.status, String(done.error ?? '')).toBe('FINISHED');
    expect(done.result.measurements.poreCount).toBe(truth.poreCount);
    const row = await jobRow(t, job.id);
    expect(row.attempts).toBe(2);
    expect(row.executorId).not.toBe(first.executorId);
    // the admin job detail keeps every attempt (issue 26): the abandoned one on the frozen launcher and why, then the
    // one that finished (a launcher found busy meanwhile adds an abandoned row that costs no attempt)
    const { client: staff } = await t.signin(ADMIN.email, ADMIN.password);
    const detail = (await staff.get(`/api/admin/jobs/${job.id}`)).body as {
      attempts: Array<{ attempt: number; outcome: string; launcherId: string | null; reason: string | null; endedAt: string | null }>;
    };
    const onFrozen = detail.attempts.find((a) => a.launcherId === first.executorId && a.reason?.startsWith('launcher_not_responding'));
    expect(onFrozen).toMatchObject({ attempt: 1, outcome: 'ABANDONED', reason: expect.stringMatching(/not responding/) });
    expect(onFrozen?.endedAt).not.toBeNull();
    expect(detail.attempts.at(-1)).toMatchObject({ attempt: 2, outcome: 'FINISHED', launcherId: row.executorId });

    // the frozen launcher's health fails: last_seen_at no longer advances, the other one's does
    const [other] = (await t.db.select().from(executors)).filter((e) => e.id !== first.executorId);
    const before = { frozen: await lastSeen(first.executorId!), other: await lastSeen(other.id) };
    await new Promise((r) => setTimeout(r, 50));
    await dispatcher.checkHealth();
    expect(await lastSeen(first.executorId!)).toBe(before.frozen);
    expect(await lastSeen(other.id)).toBeGreaterThan(before.other);

    thaw(pid);
    await t.launchersReady();
  }, 180_000);

  it('fails the job after the retry limit with a clear error when every launcher it gets freezes', async () => {
    const u = await t.signupVerified();
    const { png } = await poresImage({ width: 4000, height: 3000, count: 200, r: 25, seed: 22 });
    const imageId = await upload(u.client, png, 'doomed.png');
    const [job] = (await u.client.post('/api/jobs', { imageIds: [imageId], modelIds: [await porosityId(t)] })).body;
    const stoppedFor = new Set<number>();
    const final = await waitFor(async () => {
      const row = await jobRow(t, job.id);
      if (row.status === 'FAILED' || row.status === 'FINISHED') return row;
      if (row.status === 'PENDING' && row.executorId && row.heartbeatAt) {
        const pid = t.supervisor.pid(row.executorId);
        // freeze the launcher of each attempt once, and let the others answer again
        if (pid && !stoppedFor.has(row.attempts)) {
          stoppedFor.add(row.attempts);
          for (const p of [...frozen]) thaw(p);
          freeze(pid);
        }
      }
      return null;
    }, 150_000);
    expect(final.status).toBe('FAILED');
    expect(final.attempts).toBe(MAX_ATTEMPTS);
    expect(final.error).toMatch(/^LAUNCHER_UNAVAILABLE: .*not responding/);
    expect(final.leaseUntil).toBeNull();
    const { client: admin } = await t.signin(ADMIN.email, ADMIN.password);
    const err = await admin.get(`/api/jobs/${job.id}/error`);
    expect(err.body.error).toMatch(/LAUNCHER_UNAVAILABLE: .*not responding/);
    // every attempt is on the detail, each with why it ended (issue 26: not only the last); a launcher found busy
    // adds an abandoned row that costs no attempt
    const attempts = (await admin.get(`/api/admin/jobs/${job.id}`)).body.attempts as Array<{
      attempt: number;
      outcome: string;
      reason: string | null;
    }>;
    expect(new Set(attempts.map((a) => a.attempt))).toEqual(new Set(Array.from({ length: MAX_ATTEMPTS }, (_, i) => i + 1)));
    expect(attempts.at(-1)).toMatchObject({
      attempt: MAX_ATTEMPTS,
      outcome: 'FAILED',
      reason: expect.stringMatching(/^LAUNCHER_UNAVAILABLE: .*not responding/),
    });
    for (const a of attempts.slice(0, -1)) {
      expect(a.outcome).toBe('ABANDONED');
      expect(a.reason).toMatch(/^(launcher_not_responding|launcher_busy|launcher_unreachable|lease_)/);
    }
    expect(attempts.filter((a) => a.reason?.startsWith('launcher_not_responding')).length).toBe(MAX_ATTEMPTS - 1);
    for (const p of [...frozen]) thaw(p);
    await t.launchersReady();
  }, 180_000);
});
