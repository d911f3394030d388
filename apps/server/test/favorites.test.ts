import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { computeModels, modelAccess } from '../src/platform/db/schema/index.ts';
import { startTestApp, type TestApp } from './test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('available models and favourites', () => {
  it('lists PUBLIC models and granted PRIVATE ones; favourites default to isDefaultVisible', async () => {
    const u = await t.signupVerified();
    const [priv] = await t.db
      .insert(computeModels)
      .values({
        internalName: 'secret-model',
        routingPath: '/secret-model',
        storagePath: 's',
        displayName: 'Secret',
        version: '1',
        accessType: 'PRIVATE',
      })
      .returning();
    let available = await u.client.get('/api/settings/available-models');
    const names = available.body.map((m: { name: string }) => m.name);
    expect(names).toEqual(expect.arrayContaining(['grain-size', 'layer-thickness', 'cracks', 'porosity', 'scale-bar']));
    expect(names).not.toContain('secret-model');
    const favs = await u.client.get('/api/users/favorites');
    expect(favs.body.map((f: { path: string }) => f.path)).toEqual(expect.arrayContaining(['/models/grain-size']));
    expect(favs.body.map((f: { path: string }) => f.path)).not.toContain('/models/scale-bar');

    await t.db.insert(modelAccess).values({ modelId: priv.id, userId: u.id });
    available = await u.client.get('/api/settings/available-models');
    expect(available.body.find((m: { name: string }) => m.name === 'secret-model')).toMatchObject({ accessType: 'PRIVATE', favorite: true });
  });

  it('adds and removes favourites', async () => {
    const u = await t.signupVerified();
    const [scale] = await t.db.select().from(computeModels).where(eq(computeModels.internalName, 'scale-bar'));
    const [grain] = await t.db.select().from(computeModels).where(eq(computeModels.internalName, 'grain-size'));
    let res = await u.client.put('/api/users/favorites', { id: scale.id, favorite: true });
    expect(res.body.map((f: { modelId: string }) => f.modelId)).toContain(scale.id);
    res = await u.client.put('/api/users/favorites', { id: grain.id, favorite: false });
    expect(res.body.map((f: { modelId: string }) => f.modelId)).not.toContain(grain.id);
    expect((await u.client.get('/api/users/favorites')).body.map((f: { modelId: string }) => f.modelId)).toContain(scale.id);
  });

  it('refuses a model the user cannot see with 404', async () => {
    const u = await t.signupVerified();
    const [priv] = await t.db
      .insert(computeModels)
      .values({ internalName: 'hidden', routingPath: '/hidden', storagePath: 'h', displayName: 'Hidden', version: '1', accessType: 'PRIVATE' })
      .returning();
    expect((await u.client.put('/api/users/favorites', { id: priv.id, favorite: true })).status).toBe(404);
    expect((await u.client.put('/api/users/favorites', { id: priv.id })).status).toBe(400);
  });
});
