/**
 * Settings (back-office.md §2 "Settings screen", §3, §7; issue 11 item 6): maintenance mode (validation, audit, jobs
 * and sandbox jobs of a listed model refused with the message in the user's language, no licence unit used, no job
 * written; other models allowed; what users see of it), the services status checks, the demo license reminders
 * (mailed once per license and kind, in the user's language), and the authorization matrix.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { adminUsersApi, jobsApi, sandboxApi, settingsApi, usersApi, type EndpointDef } from '@lamella/contracts';
import { startTestApp, type TestApp } from './test-app.ts';
import { factories, type Factories, type TestUser } from './factories.ts';
import { auditLog, executors, jobs, licenses, nodes } from '../src/platform/db/schema/index.ts';
import { checkService, type HealthDeps } from '../src/modules/settings/health.ts';
import { runReminders, startReminders } from '../src/modules/settings/reminders.ts';
import type { HttpClient } from './http-client.ts';

let t: TestApp;
let f: Factories;
let admin: TestUser;
let editor: TestUser;
let power: TestUser;
let alice: TestUser;
let grainSize = '';
let layer = '';

const message = { en: 'Grain size is being upgraded until 14:00.', de: 'Die Korngröße wird bis 14 Uhr aktualisiert.' };

beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  admin = await f.admin();
  editor = await f.withRole('EDITOR');
  power = await f.powerUser(['USER.READ', 'USER.WRITE', 'JOB.READ', 'JOB.WRITE']);
  alice = await f.user();
  grainSize = await f.modelId('grain-size');
  layer = await f.modelId('porosity');
});
afterAll(async () => {
  await t?.close();
});

describe('authorization matrix', () => {
  const adminCalls: Array<[string, EndpointDef, Record<string, unknown>]> = [
    ['GET /admin/settings', settingsApi.get, {}],
    ['PUT /admin/settings/maintenance', settingsApi.setMaintenance, { body: { maintenanceMessage: message, maintenanceModels: [] } }],
    ['GET /admin/healthcheck/mail', settingsApi.healthcheck, { params: { service: 'mail' } }],
  ];
  for (const [name, endpoint, input] of adminCalls) {
    it(`${name}: ADMIN only`, async () => {
      const call = (c: HttpClient) => c.call(endpoint, input as never);
      expect((await call(t.client())).status).toBe(401);
      for (const u of [alice, editor, power]) expect((await call(u.client)).status).toBe(403);
      expect((await call(admin.client)).status).toBe(200);
    });
  }

  it('GET /settings/maintenance: any signed-in user, not anonymous', async () => {
    expect((await t.client().call(settingsApi.maintenance)).status).toBe(401);
    for (const u of [alice, editor, power, admin]) expect((await u.client.call(settingsApi.maintenance)).status).toBe(200);
  });
});

describe('maintenance mode', () => {
  it('requires both messages and known models, naming each field, and changes nothing', async () => {
    const before = (await admin.client.ok(settingsApi.get)).maintenance;
    const r = await admin.client.call(settingsApi.setMaintenance, {
      body: { maintenanceMessage: { en: ' ', de: '' }, maintenanceModels: [grainSize, 'no-such-model'] },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    const byField = Object.fromEntries(
      (r.body as unknown as { details: Array<{ field: string; message: string }> }).details.map((d) => [d.field, d.message]),
    );
    expect(byField['maintenanceMessage.en']).toBe('The English message is required.');
    expect(byField['maintenanceMessage.de']).toBe('The German message is required.');
    expect(byField.maintenanceModels).toContain('no-such-model');
    expect((await admin.client.ok(settingsApi.get)).maintenance).toEqual(before);
  });

  it('saves, answers the spec message, shows in GET /admin/settings and is audit-logged', async () => {
    const saved = await admin.client.ok(settingsApi.setMaintenance, { body: { maintenanceMessage: message, maintenanceModels: [grainSize] } });
    expect(saved).toEqual({ maintenanceMessage: message, maintenanceModels: [grainSize], message: 'Maintenance mode has been updated.' });
    const all = await admin.client.ok(settingsApi.get);
    expect(all.maintenance).toEqual({ maintenanceMessage: message, maintenanceModels: [grainSize] });
    expect(all.demoLicense).toMatchObject({ maxImages: expect.any(Number), reminderBeforeExpiry: expect.any(Number) });
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'settings.maintenance.set'));
    expect(audit).toMatchObject({ actorId: admin.id, targetType: 'settings' });
  });

  it('users see the message in their language and the models it concerns', async () => {
    const en = await alice.client.ok(settingsApi.maintenance);
    expect(en).toEqual({ active: true, message: message.en, models: [{ id: grainSize, name: 'grain-size', displayName: expect.any(String) }] });
    const german = await f.user();
    await german.client.ok(usersApi.updateProfile, { body: { language: 'de' } });
    expect((await german.client.ok(settingsApi.maintenance)).message).toBe(message.de);
  });

  it('refuses a job of a listed model: 503 MAINTENANCE in the user language, no licence unit, no job row', async () => {
    const bert = await f.user();
    await bert.client.ok(usersApi.updateProfile, { body: { language: 'de' } });
    const image = await f.image(bert);
    const used = async () => (await t.db.select({ used: licenses.used }).from(licenses).where(eq(licenses.userId, bert.id)))[0]?.used;
    const jobCount = async () => (await t.db.select({ n: count() }).from(jobs).where(eq(jobs.ownerId, bert.id)))[0].n;
    const usedBefore = await used();

    const refused = await bert.client.call(jobsApi.create, { body: { imageIds: [image.id], modelIds: [grainSize] } });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: 'MAINTENANCE', message: message.de });
    const both = await bert.client.call(jobsApi.create, { body: { imageIds: [image.id], modelIds: [layer, grainSize] } });
    expect(both.status).toBe(503);
    const sandbox = await bert.client.call(sandboxApi.run, { body: { imageId: image.id, modelsIds: [grainSize] } });
    expect(sandbox.status).toBe(503);
    expect(sandbox.body).toMatchObject({ code: 'MAINTENANCE' });
    expect(await jobCount()).toBe(0);
    expect(await used()).toBe(usedBefore);

    const allowed = await bert.client.call(jobsApi.create, { body: { imageIds: [image.id], modelIds: [layer] } });
    expect(allowed.status).toBe(200);
    expect(await jobCount()).toBe(1);
    expect(await used()).toBe((usedBefore ?? 0) + 1);
  });

  it('turning it off (no models) allows the model again and hides the notice', async () => {
    await admin.client.ok(settingsApi.setMaintenance, { body: { maintenanceMessage: message, maintenanceModels: [] } });
    expect(await alice.client.ok(settingsApi.maintenance)).toEqual({ active: false, message: '', models: [] });
    const image = await f.image(alice);
    expect((await alice.client.call(jobsApi.create, { body: { imageIds: [image.id], modelIds: [grainSize] } })).status).toBe(200);
  });
});

describe('services status', () => {
  const check = async (service: string) => admin.client.ok(settingsApi.healthcheck, { params: { service } });

  it('mail: the test SMTP server is verified', async () => {
    expect(await check('mail')).toEqual({ service: 'mail', ok: true, configured: true, detail: 'SMTP server verified' });
  });

  it('tolgee: the translations of both languages load', async () => {
    const r = await check('tolgee');
    expect(r).toMatchObject({ service: 'tolgee', ok: true, configured: true });
    expect(r.detail).toMatch(/en: \d+ namespaces, de: \d+ namespaces/);
  });

  it('minio: a probe object is written, read and deleted (nothing left behind)', async () => {
    expect(await check('minio')).toEqual({ service: 'minio', ok: true, configured: true, detail: 'disk: write, read and delete passed' });
    const { readdir } = await import('node:fs/promises');
    const left = await readdir(`${t.dataDir}/files/healthcheck`).catch(() => []);
    expect(left).toEqual([]);
  });

  it('registry: not configured without launchers; ok when every enabled launcher answers, degraded when some do, failing when none', async () => {
    expect(await check('registry')).toMatchObject({ ok: false, configured: false });
    const [node] = await t.db.insert(nodes).values({ name: 'remote', ip: '10.9.9.9', description: 'test', provider: 'OVH' }).returning();
    const [a, b, c] = await t.db
      .insert(executors)
      .values([9997, 9998, 9999].map((port) => ({ nodeId: node.id, port, version: 'test', lastSeenAt: new Date() })))
      .returning();
    expect(await check('registry')).toEqual({
      service: 'registry',
      ok: true,
      configured: true,
      degraded: false,
      detail: '3 of 3 enabled launchers healthy',
    });
    const silent = (id: string) =>
      t.db
        .update(executors)
        .set({ lastSeenAt: new Date(Date.now() - 60_000) })
        .where(eq(executors.id, id));
    await silent(a.id);
    expect(await check('registry')).toEqual({
      service: 'registry',
      ok: false,
      configured: true,
      degraded: true,
      detail: '2 of 3 enabled launchers healthy',
    });
    // a stopped (disabled) launcher is not expected to answer
    await t.db.update(executors).set({ isEnabled: false }).where(eq(executors.id, a.id));
    expect(await check('registry')).toMatchObject({ ok: true, degraded: false, detail: '2 of 2 enabled launchers healthy' });
    await silent(b.id);
    await silent(c.id);
    expect(await check('registry')).toEqual({
      service: 'registry',
      ok: false,
      configured: true,
      degraded: false,
      detail: '0 of 2 enabled launchers healthy',
    });
    await t.db.delete(nodes).where(eq(nodes.id, node.id));
  });

  it('beszel: not configured without MONITORING_URL; a real HTTP GET when set', async () => {
    expect(await check('beszel')).toEqual({ service: 'beszel', ok: false, configured: false, detail: 'MONITORING_URL is not set' });
    let status = 200;
    const server: Server = createServer((_req, res) => res.writeHead(status).end('ok'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const deps: HealthDeps = { db: t.db, mailer: t.app.ctx.mailer, storage: t.storage, launchers: null, monitoringUrl: url };
    expect(await checkService(deps, 'beszel')).toEqual({ service: 'beszel', ok: true, configured: true, detail: 'HTTP 200' });
    status = 503;
    expect(await checkService(deps, 'beszel')).toMatchObject({ ok: false, configured: true, detail: 'HTTP 503' });
    await new Promise((r) => server.close(r));
    expect(await checkService(deps, 'beszel')).toMatchObject({ ok: false, configured: true });
  });

  it('an unknown service is 404 UNKNOWN_SERVICE naming the known ones', async () => {
    const r = await admin.client.call(settingsApi.healthcheck, { params: { service: 'redis' } });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: 'UNKNOWN_SERVICE' });
    expect((r.body as unknown as { message: string }).message).toContain('mail, tolgee, registry, minio, beszel');
  });
});

describe('demo license reminders', () => {
  const DAY = 86_400_000;
  const deps = () => ({ db: t.db, mailer: t.app.ctx.mailer, publicUrl: 'http://lamella.test' });
  const endsIn = async (userId: string, ms: number) => {
    await t.db
      .update(licenses)
      .set({ finishAt: new Date(Date.now() + ms) })
      .where(and(eq(licenses.userId, userId), eq(licenses.type, 'DEMO')));
  };
  /** The reminder mails to `email` (not its sign-up verification mail). */
  const mailsTo = (email: string) => t.mailbox.messages.filter((m) => m.to.includes(email.toLowerCase()) && /trial|Test/.test(m.subject));

  it('mails a German user whose demo ends tomorrow exactly once, in German', async () => {
    const greta = await f.user({ fields: { name: 'Greta' } });
    await greta.client.ok(usersApi.updateProfile, { body: { language: 'de' } });
    const later = await f.user();
    await endsIn(greta.id, DAY);
    await endsIn(later.id, 20 * DAY);
    await runReminders(deps());
    const mails = mailsTo(greta.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('Ihre Lamella-Testlizenz läuft bald ab');
    expect(mails[0].text).toContain('Hallo Greta,');
    expect(mails[0].text).toContain('in 1 Tag(en)');
    expect(mails[0].text).toContain('http://lamella.test/dashboard');
    expect(mailsTo(later.email)).toHaveLength(0);
    await runReminders(deps());
    expect(mailsTo(greta.email)).toHaveLength(1);
  });

  it('an extended demo (training consent) gets the extension reminder within its own window', async () => {
    await admin.client.ok(adminUsersApi.setDemoLicense, {
      body: { maxImages: 20, demoDuration: 30, extensionDuration: 60, reminderBeforeExpiry: 2, reminderBeforeExtensionExpiry: 10 },
    });
    const ext = await f.user({ fields: { trainingConsent: 'true' } });
    const plain = await f.user();
    await endsIn(ext.id, 8 * DAY);
    await endsIn(plain.id, 8 * DAY);
    await runReminders(deps());
    expect(mailsTo(plain.email)).toHaveLength(0);
    const mails = mailsTo(ext.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('Your extended Lamella trial ends soon');
    await runReminders(deps());
    expect(mailsTo(ext.email)).toHaveLength(1);
  });

  it('the scheduler runs at once, then on its interval, and stops', async () => {
    const u = await f.user();
    await endsIn(u.id, DAY);
    const scheduler = startReminders(deps(), 50);
    await t.mailbox.waitFor(u.email, /trial license/);
    await scheduler.stop();
    expect(mailsTo(u.email)).toHaveLength(1);
  });
});
