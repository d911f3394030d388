import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { imagesApi, imageLibraryApi, masksApi, usersApi } from '@lamella/contracts';
import { computeModels, jobs, modelVersionArtefacts, results, storedObjects, trainingRuns } from '../src/platform/db/schema/index.ts';
import { S3Storage } from '../src/platform/storage/s3.ts';
import type { Storage } from '../src/platform/storage/storage.ts';
import { sweep } from '../src/modules/storage-usage/service.ts';
import { purgeDueUsers } from '../src/modules/admin-users/service.ts';
import { startS3Server } from './s3-server.ts';
import { startTestApp, type TestApp } from './test-app.ts';
import { factories, type TestUser } from './factories.ts';

/**
 * Issue 28 item 3: the quota counts every stored byte of a user (originals, renditions, masks, results, logo),
 * deleting frees the files, and the sweep removes files whose rows are gone (deleted users, crashes). Each test
 * compares the quota's count with the bytes really in the store, on disk and in S3 (s3rver started here).
 */
const drivers: Array<[string, boolean]> = [
  ['disk', false],
  ['s3', true],
];

for (const [driver, useS3] of drivers) {
  describe(`storage quota and sweep (${driver})`, () => {
    let t: TestApp;
    let f: ReturnType<typeof factories>;
    let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
    let store: Storage;

    beforeAll(async () => {
      if (useS3) s3 = await startS3Server();
      t = await startTestApp(s3 ? { storage: () => new S3Storage({ ...s3!.settings, bucket: s3!.settings.bucket! }) } : {});
      f = factories(t);
      store = t.storage;
    });
    afterAll(async () => {
      await t.close();
      if (store instanceof S3Storage) store.close();
      await s3?.close();
    });

    /** Every byte in the store that belongs to the user: their folders and their jobs' result files. */
    async function bytesInStore(userId: string): Promise<{ bytes: number; keys: string[] }> {
      const own = await t.db
        .select({ files: results.files })
        .from(results)
        .innerJoin(jobs, eq(jobs.resultId, results.id))
        .where(eq(jobs.ownerId, userId));
      const resultKeys = new Set(own.flatMap((r) => Object.values(r.files)));
      let bytes = 0;
      const keys: string[] = [];
      for await (const o of store.list('')) {
        const mine = ['images', 'masks', 'logos'].some((p) => o.key.startsWith(`${p}/${userId}/`)) || resultKeys.has(o.key);
        if (mine) {
          bytes += o.bytes;
          keys.push(o.key);
        }
      }
      return { bytes, keys };
    }
    const usage = async (u: TestUser) => (await u.client.ok(imagesApi.storage)).usedBytes;
    const png = (width: number, height: number, level = 80) =>
      sharp({ create: { width, height, channels: 3, background: { r: level, g: level, b: 255 - level } } })
        .png()
        .toBuffer();

    async function saveMask(u: TestUser, jobId: string, width: number, height: number) {
      const form = new FormData();
      form.append('jobId', jobId);
      form.append('files', new Blob([new Uint8Array(await png(width, height, 10))], { type: 'image/png' }), 'mask.png');
      return u.client.call(masksApi.save, { form });
    }

    /** A finished job's result with one stored file (as the dispatcher stores it, through the app's storage). */
    async function addResult(jobId: string, bytes: number) {
      const [row] = await t.db.insert(results).values({ items: [], files: {} }).returning();
      const key = `results/${row.id}/overlay.png`;
      await t.app.ctx.storage.put(key, Buffer.alloc(bytes, 7));
      await t.db
        .update(results)
        .set({ files: { 'overlay.png': key } })
        .where(eq(results.id, row.id));
      await t.db.update(jobs).set({ resultId: row.id, status: 'FINISHED' }).where(eq(jobs.id, jobId));
      return key;
    }

    it('counts originals, renditions, masks, results and the logo exactly as stored; deleting an image frees its files', async () => {
      const u = await f.user();
      expect(await usage(u)).toBe(0);
      const img = await f.image(u, { width: 300, height: 200 });
      let inStore = await bytesInStore(u.id);
      // original + thumbnail + display
      expect(inStore.keys.filter((k) => k.includes(img.id))).toHaveLength(3);
      expect(inStore.bytes).toBeGreaterThan(img.size);
      expect(await usage(u)).toBe(inStore.bytes);

      const job = await f.job(u, { image: img });
      expect((await saveMask(u, job.id, 300, 200)).status).toBe(200);
      await addResult(job.id, 4321);
      const logo = new FormData();
      logo.append('file', new Blob([new Uint8Array(await png(64, 64))], { type: 'image/png' }), 'logo.png');
      await u.client.ok(usersApi.uploadLogo, { form: logo });
      inStore = await bytesInStore(u.id);
      expect(inStore.keys.some((k) => k.startsWith(`masks/${u.id}/`))).toBe(true);
      expect(inStore.keys.some((k) => k.startsWith(`logos/${u.id}/`))).toBe(true);
      expect(inStore.keys.some((k) => k.startsWith('results/'))).toBe(true);
      expect(await usage(u)).toBe(inStore.bytes);

      // a second image, then deleting it: its files leave the store and the count drops by exactly their bytes
      const other = await f.image(u, { width: 200, height: 100, level: 30 });
      const withOther = await bytesInStore(u.id);
      expect(await usage(u)).toBe(withOther.bytes);
      await u.client.ok(imageLibraryApi.remove, { body: { imageIds: [other.id] } });
      const after = await bytesInStore(u.id);
      expect(after.keys.some((k) => k.includes(other.id))).toBe(false);
      expect(after.bytes).toBe(inStore.bytes);
      expect(await usage(u)).toBe(after.bytes);
    });

    it('refuses uploads and masks beyond the quota, counting renditions and masks; the store never holds more than allowed', async () => {
      const admin = await f.admin();
      await admin.client.ok(imagesApi.setQuotas, { body: { quotas: [{ licenseType: 'DEMO', quotaMb: 1 }] } });
      try {
        const u = await f.user();
        const quota = 1024 * 1024;
        let refused: { status: number; body: { code?: string } } | undefined;
        for (let i = 0; i < 30 && !refused; i++) {
          const form = new FormData();
          // noise-like content compresses badly: ~200 kB each
          const raw = Buffer.alloc(260 * 260 * 3);
          for (let p = 0; p < raw.length; p++) raw[p] = (p * 7919 + i * 104729) % 251;
          const file = await sharp(raw, { raw: { width: 260, height: 260, channels: 3 } })
            .png({ compressionLevel: 0 })
            .toBuffer();
          form.append('files', new Blob([new Uint8Array(file)], { type: 'image/png' }), `n${i}.png`);
          const res = await u.client.call(imagesApi.upload, { form });
          if (res.status !== 200) refused = res as unknown as { status: number; body: { code?: string } };
        }
        expect(refused?.status).toBe(413);
        expect(refused?.body.code).toBe('STORAGE_QUOTA_EXCEEDED');
        const inStore = await bytesInStore(u.id);
        expect(inStore.bytes).toBeLessThanOrEqual(quota);
        expect(await usage(u)).toBe(inStore.bytes);
        // a mask that does not fit is refused as well, and nothing is stored for it
        const [img] = (await u.client.ok(imagesApi.list)).slice(-1);
        const job = await f.job(u, { image: img });
        let maskRefused = false;
        for (let i = 0; i < 40 && !maskRefused; i++) maskRefused = (await saveMask(u, job.id, img.width, img.height)).status === 413;
        // (a mask of a flat image is tiny: top the store up with one large result so the next mask cannot fit)
        if (!maskRefused) {
          await addResult(job.id, quota);
          const res = await saveMask(u, job.id, img.width, img.height);
          expect(res.status).toBe(413);
          expect((res.body as unknown as { code: string }).code).toBe('STORAGE_QUOTA_EXCEEDED');
        }
        const end = await bytesInStore(u.id);
        expect(await usage(u)).toBe(end.bytes);
      } finally {
        await admin.client.ok(imagesApi.setQuotas, { body: { quotas: [{ licenseType: 'DEMO', quotaMb: null }] } });
      }
    });

    it('the sweep removes files whose rows are gone (a crash, a purged user) and mends the ledger', async () => {
      const u = await f.user();
      const img = await f.image(u);
      const job = await f.job(u, { image: img });
      await addResult(job.id, 1000);
      const before = await bytesInStore(u.id);
      // a crash after the file was written and before its row: an orphan in the store and the ledger
      await t.app.ctx.storage.put(`images/${u.id}/00000000-0000-4000-8000-0000000000aa/original`, Buffer.alloc(5000, 1));
      await t.app.ctx.storage.put(`masks/${u.id}/orphan.png`, Buffer.alloc(3000, 1));
      // a crash after the file was written and before the ledger row: the file is live but uncounted
      const liveKey = `images/${u.id}/${img.id}/display.webp`;
      await t.db.delete(storedObjects).where(eq(storedObjects.key, liveKey));
      // young files are left alone (a write in progress)
      const young = await sweep(t.db, store, {});
      expect(young.removed).toBe(0);
      // a ledger row whose file is gone
      await t.db.insert(storedObjects).values({ key: `masks/${u.id}/gone.png`, ownerId: u.id, bytes: 999, createdAt: new Date(0) });
      const report = await sweep(t.db, store, { minAgeMs: 0 });
      expect(report.removed).toBeGreaterThanOrEqual(2);
      expect(report.forgotten).toBeGreaterThanOrEqual(1);
      const after = await bytesInStore(u.id);
      expect(after.keys).not.toContain(`masks/${u.id}/orphan.png`);
      expect(after.bytes).toBe(before.bytes);
      expect(await usage(u)).toBe(after.bytes);

      // a user deleted by an admin: blocked, then purged after the grace period; every file goes, the jobs stay
      const admin = await f.admin();
      expect((await admin.client.delete(`/api/users/${u.id}`)).status).toBe(204);
      expect((await bytesInStore(u.id)).bytes).toBe(before.bytes);
      expect(await purgeDueUsers(t.db, t.app.ctx.storage, new Date(Date.now() + 31 * 86_400_000))).toBeGreaterThanOrEqual(1);
      expect((await bytesInStore(u.id)).keys).toEqual([]);
      // a file a crash left behind after the purge is swept
      await store.put(`logos/${u.id}/late.png`, Buffer.alloc(100, 2));
      await sweep(t.db, store, { minAgeMs: 0 });
      expect((await bytesInStore(u.id)).keys).toEqual([]);
      const [kept] = await t.db.select().from(jobs).where(eq(jobs.id, job.id));
      expect(kept.ownerId).not.toBe(u.id);
    });

    it('the sweep never removes a trained network a version row names; networks are in the ledger as the system’s', async () => {
      const [model] = await t.db.select().from(computeModels).limit(1);
      const tag = Math.random().toString(36).slice(2, 8);
      const net = (name: string) => `networks/runs/${name}.onnx`;
      const runRow = async (status: 'FINISHED' | 'RUNNING', n: number) => {
        const [row] = await t.db
          .insert(trainingRuns)
          .values({
            modelId: model.id,
            baseVersion: 'base',
            candidateVersion: `sweep-${tag}-ft${n}`,
            status,
            attempt: status === 'RUNNING' ? 1 : 0,
            imageIds: [],
            holdoutImageIds: [],
            holdoutShare: 0.2,
            steps: 1,
            seed: 1,
          })
          .returning();
        return row;
      };
      const run = await runRow('FINISHED', 1);
      const running = await runRow('RUNNING', 2);
      // one trained version of each status, written through the metered storage as the training dispatcher does
      const named: string[] = [];
      for (const [i, status] of (['CANDIDATE', 'PROMOTED', 'RETIRED'] as const).entries()) {
        const key = net(`${run.id}-${i + 1}`);
        await t.app.ctx.storage.put(key, Buffer.alloc(4000 + i, 7));
        await t.db.insert(modelVersionArtefacts).values({
          modelId: model.id,
          version: `sweep-${tag}-${status}`,
          runId: run.id,
          status,
          networkKey: key,
          networkSha256: 'ab'.repeat(32),
          networkSize: 4000 + i,
          card: {},
          validation: {},
        });
        named.push(key);
      }
      // the network a running run is writing (no version row yet), and one a crash left behind
      const writing = net(`${running.id}-1`);
      const orphan = net(`${run.id}-9`);
      await t.app.ctx.storage.put(writing, Buffer.alloc(10, 1));
      await t.app.ctx.storage.put(orphan, Buffer.alloc(20, 1));
      const ledger = async (key: string) => (await t.db.select().from(storedObjects).where(eq(storedObjects.key, key)))[0];
      for (const key of [...named, writing, orphan]) expect(await ledger(key), key).toMatchObject({ ownerId: null });
      expect((await ledger(named[1]))!.bytes).toBe(4001);
      // a ledger row lost in a crash is written again by the sweep, still without an owner
      await t.db.delete(storedObjects).where(eq(storedObjects.key, named[2]));

      // however old the files are
      const report = await sweep(t.db, store, { minAgeMs: 0, now: new Date(Date.now() + 365 * 86_400_000) });
      const inStore = new Set<string>();
      for await (const o of store.list('networks/')) inStore.add(o.key);
      for (const key of [...named, writing]) expect(inStore.has(key), key).toBe(true);
      expect(inStore.has(orphan)).toBe(false);
      expect(report.removed).toBeGreaterThanOrEqual(1);
      expect(await ledger(orphan)).toBeUndefined();
      expect(await ledger(named[2])).toMatchObject({ ownerId: null, bytes: 4002 });

      // once the run is over and its version rows are gone (the model deleted), its files are orphans
      await t.db.update(trainingRuns).set({ status: 'CANCELLED' }).where(eq(trainingRuns.id, running.id));
      await t.db.delete(modelVersionArtefacts).where(and(eq(modelVersionArtefacts.modelId, model.id), eq(modelVersionArtefacts.runId, run.id)));
      await sweep(t.db, store, { minAgeMs: 0 });
      const left: string[] = [];
      for await (const o of store.list('networks/')) left.push(o.key);
      for (const key of [...named, writing]) expect(left, key).not.toContain(key);
    });
  });
}
