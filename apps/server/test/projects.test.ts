import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobsApi, projectsApi, type Project } from '@lamella/contracts';
import { eq, inArray } from 'drizzle-orm';
import { jobs } from '../src/platform/db/schema/index.ts';
import { factories, type Factories, type TestUser } from './factories.ts';
import { startTestApp, type TestApp } from './test-app.ts';

let t: TestApp;
let f: Factories;
beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
});
afterAll(() => t.close());

/** An owner with a project shared with an EDITOR and a VIEWER, plus a stranger. */
async function setup() {
  const [owner, editor, viewer, stranger] = await Promise.all([f.user(), f.user(), f.user(), f.user()]);
  const project = await owner.client.ok(projectsApi.create, { body: { name: 'Steel batch 7', description: 'etched' } });
  await owner.client.ok(projectsApi.share, { params: { id: project.id }, body: { email: editor.email, role: 'EDITOR' } });
  await owner.client.ok(projectsApi.share, { params: { id: project.id }, body: { email: viewer.email, role: 'VIEWER' } });
  // a share is an invitation until the invitee accepts (issue 28 item 4; project-invitations.test.ts)
  for (const u of [editor, viewer])
    for (const i of await u.client.ok(projectsApi.myInvitations)) await u.client.ok(projectsApi.acceptInvitation, { params: { id: i.id } });
  return { owner, editor, viewer, stranger, project };
}

const listOf = async (u: TestUser) => u.client.ok(projectsApi.list);

describe('projects', () => {
  it('lists own and shared projects with the caller access, for each of them', async () => {
    const { owner, editor, viewer, stranger, project } = await setup();
    expect((await listOf(owner)).find((p) => p.id === project.id)).toMatchObject({ access: 'OWNER', isOwner: true, imageCount: 0 });
    expect((await listOf(editor)).find((p) => p.id === project.id)).toMatchObject({ access: 'EDITOR', isOwner: false, name: 'Steel batch 7' });
    expect((await listOf(viewer)).find((p) => p.id === project.id)).toMatchObject({ access: 'VIEWER', isOwner: false });
    expect((await listOf(stranger)).some((p: Project) => p.id === project.id)).toBe(false);
    expect((await t.client().call(projectsApi.list)).status).toBe(401);
  });

  it('get: member 200, stranger 404, anonymous 401', async () => {
    const { owner, editor, viewer, stranger, project } = await setup();
    for (const u of [owner, editor, viewer]) expect((await u.client.call(projectsApi.get, { params: { id: project.id } })).status).toBe(200);
    expect((await stranger.client.call(projectsApi.get, { params: { id: project.id } })).status).toBe(404);
    expect((await t.client().call(projectsApi.get, { params: { id: project.id } })).status).toBe(401);
  });

  it('rename and describe: owner and EDITOR yes, VIEWER 403 with nothing changed, stranger 404', async () => {
    const { owner, editor, viewer, stranger, project } = await setup();
    const renamed = await owner.client.ok(projectsApi.update, { params: { id: project.id }, body: { name: ' Steel 8 ', description: 'polished' } });
    expect(renamed).toMatchObject({ name: 'Steel 8', description: 'polished' });
    expect(await editor.client.ok(projectsApi.update, { params: { id: project.id }, body: { description: '' } })).toMatchObject({
      description: null,
    });
    const denied = await viewer.client.call(projectsApi.update, { params: { id: project.id }, body: { name: 'Hijack' } });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'PROJECT_READ_ONLY' });
    expect((await stranger.client.call(projectsApi.update, { params: { id: project.id }, body: { name: 'x' } })).status).toBe(404);
    expect((await t.client().call(projectsApi.update, { params: { id: project.id }, body: { name: 'x' } })).status).toBe(401);
    const blank = await owner.client.call(projectsApi.update, { params: { id: project.id }, body: { name: '   ' } });
    expect(blank.status).toBe(400);
    expect(blank.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [expect.objectContaining({ field: 'name' })] });
    expect((await owner.client.ok(projectsApi.get, { params: { id: project.id } })).name).toBe('Steel 8');
  });

  it('applies a settings template (unknown template 404) and removes it', async () => {
    const { owner, viewer, project } = await setup();
    const admin = await f.admin();
    const tpl = await admin.client.post('/api/admin/project-settings-templates', {
      name: 'Fine grains',
      settings: { segmentation: { minScore: 0.3 } },
    });
    expect(tpl.status).toBe(200);
    const options = await owner.client.ok(projectsApi.templates);
    expect(options.find((o) => o.id === tpl.body.id)).toMatchObject({ name: 'Fine grains' });
    expect(options[0]).not.toHaveProperty('settings');
    expect(await owner.client.ok(projectsApi.update, { params: { id: project.id }, body: { templateId: tpl.body.id } })).toMatchObject({
      templateId: tpl.body.id,
    });
    const unknown = await owner.client.call(projectsApi.update, {
      params: { id: project.id },
      body: { templateId: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknown.status).toBe(404);
    expect((await viewer.client.call(projectsApi.update, { params: { id: project.id }, body: { templateId: null } })).status).toBe(403);
    expect((await owner.client.ok(projectsApi.get, { params: { id: project.id } })).templateId).toBe(tpl.body.id);
    expect(await owner.client.ok(projectsApi.update, { params: { id: project.id }, body: { templateId: null } })).toMatchObject({ templateId: null });
  });

  it('images: owner and EDITOR add their own images, VIEWER reads, stranger 404; thumbnails follow project access', async () => {
    const { owner, editor, viewer, stranger, project } = await setup();
    const img = await f.image(owner, { filename: 'a.png' });
    const editorImg = await f.image(editor, { filename: 'b.png', level: 40 });
    const strangerImg = await f.image(stranger, { filename: 'c.png' });
    const p = { id: project.id };
    let list = await owner.client.ok(projectsApi.addImages, { params: p, body: { imageIds: [img.id, img.id] } });
    expect(list.map((i) => i.orginalFilename)).toEqual(['a.png']);
    list = await editor.client.ok(projectsApi.addImages, { params: p, body: { imageIds: [editorImg.id] } });
    expect(list.map((i) => i.orginalFilename).sort()).toEqual(['a.png', 'b.png']);
    // Another user's image cannot be added, even by the owner of the project.
    expect((await owner.client.call(projectsApi.addImages, { params: p, body: { imageIds: [strangerImg.id] } })).status).toBe(404);
    expect((await viewer.client.call(projectsApi.addImages, { params: p, body: { imageIds: [img.id] } })).status).toBe(403);
    expect((await stranger.client.call(projectsApi.addImages, { params: p, body: { imageIds: [strangerImg.id] } })).status).toBe(404);
    expect((await stranger.client.call(projectsApi.images, { params: p })).status).toBe(404);
    expect((await t.client().call(projectsApi.images, { params: p })).status).toBe(401);
    expect((await viewer.client.ok(projectsApi.images, { params: p })).length).toBe(2);
    expect((await listOf(owner)).find((x) => x.id === project.id)?.imageCount).toBe(2);

    const thumb = await viewer.client.call(projectsApi.thumbnail, { params: { id: project.id, imageId: img.id } });
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    expect((await stranger.client.call(projectsApi.thumbnail, { params: { id: project.id, imageId: img.id } })).status).toBe(404);
    expect((await viewer.client.call(projectsApi.thumbnail, { params: { id: project.id, imageId: strangerImg.id } })).status).toBe(404);

    expect((await viewer.client.call(projectsApi.removeImage, { params: { id: project.id, imageId: img.id } })).status).toBe(403);
    expect((await owner.client.call(projectsApi.removeImage, { params: { id: project.id, imageId: img.id } })).status).toBe(204);
    expect((await owner.client.call(projectsApi.removeImage, { params: { id: project.id, imageId: img.id } })).status).toBe(404);
    expect((await owner.client.ok(projectsApi.images, { params: p })).map((i) => i.id)).toEqual([editorImg.id]);
  });

  it('jobs run in a project: the settings of its template for the model, its images join it; VIEWER and stranger 404 with nothing created', async () => {
    const { owner, editor, viewer, stranger, project } = await setup();
    const admin = await f.admin();
    const tpl = await admin.client.post('/api/admin/project-settings-templates', {
      name: 'Coarse grains',
      settings: { 'grain-size': { segmentation: { minScore: 0.7 } }, '*': { overlay: { opacity: 0.2 } } },
    });
    expect(tpl.status).toBe(200);
    await owner.client.ok(projectsApi.update, { params: { id: project.id }, body: { templateId: tpl.body.id } });
    const grain = await f.modelId('grain-size');
    const layer = await f.modelId('layer-thickness');
    const img = await f.image(owner, { filename: 'seam.png' });
    const created = await owner.client.ok(jobsApi.create, { body: { imageIds: [img.id], modelIds: [grain, layer], projectId: project.id } });
    const rows = await t.db
      .select({ id: jobs.id, modelId: jobs.modelId, settings: jobs.settings, projectId: jobs.projectId })
      .from(jobs)
      .where(
        inArray(
          jobs.id,
          created.map((j) => j.id),
        ),
      );
    const grainRow = rows.find((r) => r.modelId === grain)!;
    const layerRow = rows.find((r) => r.modelId === layer)!;
    expect(grainRow.projectId).toBe(project.id);
    // the model's own part of the template, not the "*" part; another model gets the "*" part
    expect(grainRow.settings).toMatchObject({ segmentation: { minScore: 0.7 } });
    expect(grainRow.settings).not.toHaveProperty('overlay');
    expect(layerRow.settings).toMatchObject({ overlay: { opacity: 0.2 } });
    // the uploaded image is now held by the project
    expect((await viewer.client.ok(projectsApi.images, { params: { id: project.id } })).map((i) => i.id)).toEqual([img.id]);
    // an EDITOR runs their own image there; a VIEWER and a stranger cannot (404), and nothing is created
    const editorImg = await f.image(editor);
    expect((await editor.client.call(jobsApi.create, { body: { imageIds: [editorImg.id], modelIds: [grain], projectId: project.id } })).status).toBe(
      200,
    );
    for (const u of [viewer, stranger]) {
      const own = await f.image(u);
      const before = (await t.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.ownerId, u.id))).length;
      const res = await u.client.call(jobsApi.create, { body: { imageIds: [own.id], modelIds: [grain], projectId: project.id } });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND' });
      expect((await t.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.ownerId, u.id))).length).toBe(before);
    }
  });

  it('lists the jobs started in the project on its images (not the runs of the image elsewhere)', async () => {
    const { owner, viewer, project } = await setup();
    const img = await f.image(owner);
    await owner.client.ok(projectsApi.addImages, { params: { id: project.id }, body: { imageIds: [img.id] } });
    await f.job(owner, { image: img });
    const [job] = await owner.client.ok(jobsApi.create, {
      body: { imageIds: [img.id], modelIds: [await f.modelId('grain-size')], projectId: project.id },
    });
    const [held] = await viewer.client.ok(projectsApi.images, { params: { id: project.id } });
    expect(held.jobs.map((j) => j.id)).toEqual([job.id]);
    expect(held.jobs[0].modelName).toBeTruthy();
  });

  it('access list, revoke by the owner (others 403/404), a member may leave', async () => {
    const { owner, editor, viewer, stranger, project } = await setup();
    await owner.client.ok(projectsApi.share, { params: { id: project.id }, body: { email: 'nobody-yet@lamella.test' } });
    const acc = await owner.client.ok(projectsApi.access, { params: { id: project.id } });
    expect(acc.members.map((m) => [m.email, m.role])).toEqual([
      [owner.email, 'OWNER'],
      [editor.email, 'EDITOR'],
      [viewer.email, 'VIEWER'],
    ]);
    expect(acc.invitations).toEqual([{ email: 'nobody-yet@lamella.test', role: 'VIEWER' }]);
    expect((await viewer.client.ok(projectsApi.access, { params: { id: project.id } })).invitations).toEqual([]);
    expect((await stranger.client.call(projectsApi.access, { params: { id: project.id } })).status).toBe(404);

    const revokeViewer = { id: project.id, userId: viewer.id };
    expect((await editor.client.call(projectsApi.revoke, { params: revokeViewer })).status).toBe(403);
    expect((await stranger.client.call(projectsApi.revoke, { params: revokeViewer })).status).toBe(404);
    expect((await t.client().call(projectsApi.revoke, { params: revokeViewer })).status).toBe(401);
    expect((await owner.client.call(projectsApi.revoke, { params: revokeViewer })).status).toBe(204);
    expect((await viewer.client.call(projectsApi.get, { params: { id: project.id } })).status).toBe(404);
    expect((await listOf(viewer)).some((p) => p.id === project.id)).toBe(false);
    // The editor leaves on their own.
    expect((await editor.client.call(projectsApi.revoke, { params: { id: project.id, userId: editor.id } })).status).toBe(204);
    expect((await editor.client.call(projectsApi.get, { params: { id: project.id } })).status).toBe(404);

    expect(
      (await owner.client.call(projectsApi.cancelInvitation, { params: { id: project.id }, query: { email: 'Nobody-Yet@lamella.test' } })).status,
    ).toBe(204);
    expect((await owner.client.ok(projectsApi.access, { params: { id: project.id } })).invitations).toEqual([]);
  });

  it('share and delete are the owner’s: EDITOR and VIEWER 403, stranger 404; delete then 404 for all', async () => {
    const { owner, editor, viewer, stranger, project } = await setup();
    const other = await f.user();
    const body = { email: other.email, role: 'VIEWER' as const };
    expect((await editor.client.call(projectsApi.share, { params: { id: project.id }, body })).status).toBe(403);
    expect((await viewer.client.call(projectsApi.share, { params: { id: project.id }, body })).status).toBe(403);
    expect((await stranger.client.call(projectsApi.share, { params: { id: project.id }, body })).status).toBe(404);
    for (const u of [editor, viewer]) expect((await u.client.call(projectsApi.remove, { params: { id: project.id } })).status).toBe(403);
    expect((await stranger.client.call(projectsApi.remove, { params: { id: project.id } })).status).toBe(404);
    expect((await t.client().call(projectsApi.remove, { params: { id: project.id } })).status).toBe(401);
    expect((await owner.client.call(projectsApi.remove, { params: { id: project.id } })).status).toBe(204);
    for (const u of [owner, editor, viewer]) expect((await u.client.call(projectsApi.get, { params: { id: project.id } })).status).toBe(404);
  });
});
