import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { imageLibraryApi, imagesApi, jobsApi, projectsApi } from '@lamella/contracts';
import { images, jobs, licenses } from '../src/platform/db/schema/index.ts';
import { factories, type Factories } from './factories.ts';
import { startTestApp, type TestApp } from './test-app.ts';

let t: TestApp;
let f: Factories;
beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
});
afterAll(() => t.close());

describe('image library', () => {
  it('pages the caller’s images newest first, searches by name, filters by day and project', async () => {
    const [ada, bob] = await Promise.all([f.user(), f.user()]);
    const a = await f.image(ada, { filename: 'ferrite_01.png', width: 100, height: 60 });
    const b = await f.image(ada, { filename: 'Ferrite_02.png', level: 30 });
    const c = await f.image(ada, { filename: 'pearlite%.png', level: 200 });
    await f.image(bob, { filename: 'ferrite_bob.png' });
    await t.db
      .update(images)
      .set({ createdAt: new Date('2025-03-10T12:00:00Z') })
      .where(eq(images.id, a.id));

    const all = await ada.client.ok(imageLibraryApi.list, { query: { pageSize: 2 } });
    expect(all.total).toBe(3);
    expect(all.items.map((i) => i.id)).toEqual([c.id, b.id]);
    expect(all.items[0]).toMatchObject({ orginalFilename: 'pearlite%.png', width: 120, height: 80, pixelSizeUm: null, projects: [] });
    const page2 = await ada.client.ok(imageLibraryApi.list, { query: { pageSize: 2, page: 2 } });
    expect(page2.items.map((i) => i.id)).toEqual([a.id]);

    const found = await ada.client.ok(imageLibraryApi.list, { query: { search: 'FERRITE' } });
    expect(found.items.map((i) => i.orginalFilename).sort()).toEqual(['Ferrite_02.png', 'ferrite_01.png']);
    // LIKE wildcards are searched literally.
    expect((await ada.client.ok(imageLibraryApi.list, { query: { search: '%' } })).items.map((i) => i.id)).toEqual([c.id]);

    const march = await ada.client.ok(imageLibraryApi.list, { query: { from: '2025-03-10', to: '2025-03-10' } });
    expect(march.items.map((i) => i.id)).toEqual([a.id]);
    expect((await ada.client.ok(imageLibraryApi.list, { query: { from: '2025-03-11' } })).items.map((i) => i.id)).toEqual([c.id, b.id]);
    const bad = await ada.client.call(imageLibraryApi.list, { query: { from: '2025-03-11', to: '2025-03-01' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [expect.objectContaining({ field: 'to' })] });
    expect((await ada.client.call(imageLibraryApi.list, { query: { from: 'yesterday' } })).status).toBe(400);

    const project = await ada.client.ok(projectsApi.create, { body: { name: 'Ferrites' } });
    await ada.client.ok(projectsApi.addImages, { params: { id: project.id }, body: { imageIds: [a.id] } });
    const inProject = await ada.client.ok(imageLibraryApi.list, { query: { projectId: project.id } });
    expect(inProject.items.map((i) => i.id)).toEqual([a.id]);
    expect(inProject.items[0].projects).toEqual([{ id: project.id, name: 'Ferrites' }]);
    // Another user's project: 404; their own library never shows ada's images.
    expect((await bob.client.call(imageLibraryApi.list, { query: { projectId: project.id } })).status).toBe(404);
    expect((await bob.client.ok(imageLibraryApi.list)).items.map((i) => i.orginalFilename)).toEqual(['ferrite_bob.png']);
    expect((await t.client().call(imageLibraryApi.list)).status).toBe(401);
  });

  it('shows the calibration of a calibrated image', async () => {
    const ada = await f.user();
    const img = await f.image(ada);
    await t.db.update(images).set({ pixelSizeUm: 0.25 }).where(eq(images.id, img.id));
    expect((await ada.client.ok(imageLibraryApi.list)).items[0].pixelSizeUm).toBe(0.25);
  });

  it('deletes softly: images leave library, projects and usage, their jobs are archived; others’ ids 404 and change nothing', async () => {
    const [ada, bob] = await Promise.all([f.user(), f.user()]);
    const keep = await f.image(ada, { filename: 'keep.png' });
    const gone = await f.image(ada, { filename: 'gone.png', level: 10 });
    const bobs = await f.image(bob);
    const job = await f.job(ada, { image: gone });
    const project = await ada.client.ok(projectsApi.create, { body: { name: 'P' } });
    await ada.client.ok(projectsApi.addImages, { params: { id: project.id }, body: { imageIds: [keep.id, gone.id] } });
    const usedBefore = (await ada.client.ok(imagesApi.storage)).usedBytes;

    const mixed = await ada.client.call(imageLibraryApi.remove, { body: { imageIds: [gone.id, bobs.id] } });
    expect(mixed.status).toBe(404);
    expect((await ada.client.ok(imageLibraryApi.list)).total).toBe(2);
    expect((await bob.client.call(imageLibraryApi.remove, { body: { imageIds: [gone.id] } })).status).toBe(404);
    expect((await t.client().call(imageLibraryApi.remove, { body: { imageIds: [gone.id] } })).status).toBe(401);

    expect(await ada.client.ok(imageLibraryApi.remove, { body: { imageIds: [gone.id] } })).toEqual({ deleted: 1, archivedJobs: 1 });
    expect((await ada.client.ok(imageLibraryApi.list)).items.map((i) => i.id)).toEqual([keep.id]);
    expect((await ada.client.ok(projectsApi.images, { params: { id: project.id } })).map((i) => i.id)).toEqual([keep.id]);
    expect((await ada.client.ok(imagesApi.storage)).usedBytes).toBeLessThan(usedBefore);
    const [row] = await t.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(row.archived).toBe(true);
    const [img] = await t.db.select().from(images).where(eq(images.id, gone.id));
    expect(img.isDeleted).toBe(true);
    expect((await ada.client.call(imagesApi.thumbnail, { params: { id: gone.id } })).status).toBe(404);
    // Deleted again: 404; a deleted image cannot be run.
    expect((await ada.client.call(imageLibraryApi.remove, { body: { imageIds: [gone.id] } })).status).toBe(404);
    const model = await f.modelId('grain-size');
    expect((await ada.client.call(jobsApi.create, { body: { imageIds: [gone.id], modelIds: [model] } })).status).toBe(404);
  });

  it('re-running an already analysed image from the library uses no new licence unit', async () => {
    const ada = await f.user();
    await t.db.update(licenses).set({ images: 2, used: 0 }).where(eq(licenses.userId, ada.id));
    const first = await f.image(ada, { filename: 'old.png' });
    const second = await f.image(ada, { filename: 'second.png', level: 20 });
    const third = await f.image(ada, { filename: 'third.png', level: 30 });
    const grain = await f.modelId('grain-size');
    const layer = await f.modelId('porosity');
    await ada.client.ok(jobsApi.create, { body: { imageIds: [first.id], modelIds: [grain] } });
    await ada.client.ok(jobsApi.create, { body: { imageIds: [second.id], modelIds: [grain] } });
    const used = async () => (await t.db.select().from(licenses).where(eq(licenses.userId, ada.id)))[0].used;
    expect(await used()).toBe(2);
    // The limit is reached, but the older image runs again (same model and another one) without a unit.
    const again = await ada.client.call(jobsApi.create, { body: { imageIds: [first.id], modelIds: [grain, layer] } });
    expect(again.status).toBe(200);
    expect(await used()).toBe(2);
    // A new image needs a unit: refused, and nothing is created.
    const refused = await ada.client.call(jobsApi.create, { body: { imageIds: [third.id], modelIds: [grain] } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'LICENSE_LIMIT_EXCEEDED' });
    expect(await t.db.select().from(jobs).where(eq(jobs.imageId, third.id))).toEqual([]);
  });
});
