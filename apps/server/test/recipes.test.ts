import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { computeModels } from '../src/platform/db/schema/index.ts';
import { multilayerGray, multilayerPng, multilayerStrokes } from '../../../packages/analysis/src/synth/multilayer.ts';
import { startTestApp, waitFor, type TestApp } from './test-app.ts';

/**
 * Recipes (issue 22) over HTTP with a real launcher: train on strokes (preview at once), save, apply to a batch of
 * images with the layer model, versions, and that another user's recipe answers 404 everywhere.
 */
let t: TestApp;
let layerModel: string;
let porosityModel: string;
beforeAll(async () => {
  t = await startTestApp({ launchers: 1 });
  await t.launchersReady();
  [{ id: layerModel }] = await t.db.select({ id: computeModels.id }).from(computeModels).where(eq(computeModels.internalName, 'layer-thickness'));
  [{ id: porosityModel }] = await t.db.select({ id: computeModels.id }).from(computeModels).where(eq(computeModels.internalName, 'porosity'));
}, 180_000);
afterAll(() => t?.close());

type Client = ReturnType<TestApp['client']>;
async function upload(client: Client, png: Buffer, name: string): Promise<string> {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(png)]), name);
  form.append('pixelSizeUm', '0.5');
  const res = await client.request('POST', '/api/images', { form });
  expect(res.status).toBe(200);
  return res.body[0].id;
}
const settled = (client: Client, id: string) =>
  waitFor(async () => {
    const res = await client.get(`/api/jobs/${id}`);
    return ['FINISHED', 'FAILED', 'CACHED'].includes(res.body.status) ? res.body : null;
  }, 300_000);

const W = 640,
  H = 480;
const a = multilayerGray({ width: W, height: H, seed: 7, oxidePx: 34 });
const b = multilayerGray({ width: W, height: H, seed: 8, oxidePx: 28 });
const c = multilayerGray({ width: W, height: H, seed: 9, oxidePx: 40 });
const classes = [
  { name: 'Oxide', colour: '#ff3030' },
  { name: 'Other', colour: '#3050ff' },
];
const strokes = multilayerStrokes(a.truth, W, H).map((s) => ({ ...s, points: s.points.map(([x, y]) => [Math.round(x), Math.round(y)]) }));

describe('recipes over HTTP', () => {
  it('trains from strokes and answers the segmentation at once, saves, applies it to a batch and measures the chosen layer', async () => {
    const u = await t.signupVerified();
    const imageA = await upload(u.client, await multilayerPng(a), 'coating-a.png');
    const imageB = await upload(u.client, await multilayerPng(b), 'coating-b.png');
    const imageC = await upload(u.client, await multilayerPng(c), 'coating-c.png');

    const preview = await u.client.post('/api/recipes/train', { imageId: imageA, classes, strokes });
    expect(preview.status).toBe(200);
    expect(preview.body.overlay).toMatch(/^data:image\/png;base64,/);
    expect([preview.body.width, preview.body.height]).toEqual([W, H]);
    // the oxide is about 34 of 480 rows
    expect(preview.body.fractions[0]).toBeGreaterThan(4);
    expect(preview.body.fractions[0]).toBeLessThan(11);

    const saved = await u.client.post('/api/recipes', { name: 'TGO oxide', imageId: imageA, classes, strokes, measures: { layer: 0 } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ name: 'TGO oxide', version: 1, kind: 'forest', own: true, measures: { layer: 0 } });
    const list = await u.client.get('/api/recipes');
    expect(list.body.map((r: { id: string }) => r.id)).toContain(saved.body.id);

    // another image previewed with the saved recipe
    const other = await u.client.post(`/api/recipes/${saved.body.id}/preview`, { imageId: imageB });
    expect(other.status).toBe(200);
    expect(other.body.fractions[0]).toBeGreaterThan(3);

    // a batch: two images, the layer model measures the recipe's oxide
    const created = await u.client.post('/api/jobs', { imageIds: [imageB, imageC], modelIds: [layerModel], recipeId: saved.body.id });
    expect(created.status).toBe(200);
    const truths = new Map([
      [imageB, b.truth.oxideMeanPx * 0.5],
      [imageC, c.truth.oxideMeanPx * 0.5],
    ]);
    for (const job of created.body) {
      const done = await settled(u.client, job.id);
      expect(done.status, JSON.stringify(done.failureReason)).toBe('FINISHED');
      const m = done.result.measurements;
      expect(m.recipeId).toBe(saved.body.id);
      expect(m.recipeName).toBe('TGO oxide');
      expect(m.recipeVersion).toBe(1);
      const truth = truths.get(job.imageId)!;
      expect(Math.abs(m.meanThicknessUm - truth) / truth).toBeLessThan(0.05);
    }

    // a new version; a job with the default model on the same image measures the bright top coat instead
    const v2 = await u.client.put(`/api/recipes/${saved.body.id}`, {
      name: 'TGO oxide',
      imageId: imageA,
      classes,
      strokes,
      measures: { layer: 0, phase: [0] },
    });
    expect(v2.status).toBe(200);
    expect(v2.body.version).toBe(2);
    const [pj] = (await u.client.post('/api/jobs', { imageIds: [imageB], modelIds: [porosityModel], recipeId: saved.body.id })).body;
    const pd = await settled(u.client, pj.id);
    expect(pd.status).toBe('FINISHED');
    expect(pd.result.measurements.recipeVersion).toBe(2);
    expect(pd.result.measurements.recipeClass1AreaPercent).toBeGreaterThan(3);
    // version 1 can still be chosen
    const [old] = (await u.client.post('/api/jobs', { imageIds: [imageB], modelIds: [layerModel], recipeId: saved.body.id, recipeVersion: 1 })).body;
    expect(old.status).toBe('CACHED');
  }, 560_000);

  it("answers 404 for another user's recipe, and clear errors for bad input that change nothing", async () => {
    const owner = await t.signupVerified();
    const stranger = await t.signupVerified();
    const imageA = await upload(owner.client, await multilayerPng(a), 'a.png');
    const strangerImage = await upload(stranger.client, await multilayerPng(a), 'b.png');
    const saved = await owner.client.post('/api/recipes', { name: 'Mine', imageId: imageA, classes, strokes, measures: { layer: 0 } });
    expect(saved.status).toBe(200);
    const id = saved.body.id;
    expect((await stranger.client.get(`/api/recipes/${id}`)).status).toBe(404);
    expect((await stranger.client.post(`/api/recipes/${id}/preview`, { imageId: strangerImage })).status).toBe(404);
    expect(
      (await stranger.client.put(`/api/recipes/${id}`, { name: 'x', imageId: strangerImage, classes, strokes, measures: { layer: 0 } })).status,
    ).toBe(404);
    expect((await stranger.client.delete(`/api/recipes/${id}`)).status).toBe(404);
    const job = await stranger.client.post('/api/jobs', { imageIds: [strangerImage], modelIds: [layerModel], recipeId: id });
    expect(job.status).toBe(404);
    expect((await stranger.client.get('/api/recipes')).body).toEqual([]);
    // the owner's image cannot be trained on by the stranger
    expect((await stranger.client.post('/api/recipes/train', { imageId: imageA, classes, strokes })).status).toBe(404);

    // a class without a stroke, no name, no measured class: 400 naming the fields
    const oneClass = strokes.filter((s) => s.classIndex === 0);
    const bad = await owner.client.post('/api/recipes', { name: ' ', imageId: imageA, classes, strokes: oneClass, measures: {} });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    expect(bad.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['measures', 'name', 'strokes']);
    expect(bad.body.details.find((d: { field: string }) => d.field === 'strokes').message).toMatch(/Other/);
    // the layer recipe names nothing for porosity
    const wrong = await owner.client.post('/api/jobs', { imageIds: [imageA], modelIds: [porosityModel], recipeId: id });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('RECIPE_NOT_FOR_MODEL');
    expect((await owner.client.get('/api/recipes')).body).toHaveLength(1);
    // the owner deletes it
    expect((await owner.client.delete(`/api/recipes/${id}`)).status).toBe(204);
    expect((await owner.client.get(`/api/recipes/${id}`)).status).toBe(404);
  }, 300_000);

  it('grey ranges: a classifier without strokes', async () => {
    const u = await t.signupVerified();
    const imageA = await upload(u.client, await multilayerPng(a), 'a.png');
    const res = await u.client.post('/api/recipes/train', {
      imageId: imageA,
      classes,
      greyRanges: [{ classIndex: 0, min: 100, max: 135 }],
      otherClass: 1,
    });
    expect(res.status).toBe(200);
    expect(res.body.samples).toBe(0);
    expect(res.body.fractions[0]).toBeGreaterThan(3);
  }, 120_000);
});
