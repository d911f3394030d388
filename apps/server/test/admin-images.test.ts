/**
 * Back-office images (back-office.md §2 Images screen, §6, §7 Images; issue 11 item 1): the paged list with the
 * `x-next-page` header, its sorts and filters, the owners of the Owner filter, staff access to a customer's
 * thumbnail, the streamed metadata report (formula cells neutralised), and the authorization matrix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { adminImagesApi, imageLibraryApi, imagesApi, type AdminImage } from '@lamella/contracts';
import { startTestApp, type TestApp } from './test-app.ts';
import { factories, type TestUser } from './factories.ts';
import { images } from '../src/platform/db/schema/index.ts';
import { reportBatches } from '../src/modules/admin-images/repo.ts';
import type { HttpClient } from './http-client.ts';

let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let editor: TestUser;
let power: TestUser;
let anonymous: HttpClient;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp();
  const f = factories(t);
  admin = await f.admin();
  alice = await f.user({ fields: { name: 'Alice', surname: 'Zimmer' } });
  bob = await f.user({ fields: { name: 'Bob', surname: 'Adams' } });
  editor = await f.withRole('EDITOR');
  power = await f.powerUser(['USER.READ', 'USER.WRITE', 'JOB.READ', 'JOB.WRITE']);
  anonymous = t.client();
  ids.a1 = (await f.image(alice, { filename: 'a1.png', level: 10 })).id;
  ids.a2 = (await f.image(alice, { filename: 'a2.png', level: 20 })).id;
  ids.a3 = (await f.image(alice, { filename: 'a3.png', level: 30 })).id;
  ids.b1 = (await f.image(bob, { filename: 'b1.png', level: 40 })).id;
  // Distinct, known upload times (newest: a3) and one old image; bob's is deleted and allowed for training.
  const at = (iso: string) => new Date(iso);
  await t.db
    .update(images)
    .set({ createdAt: at('2026-03-01T10:00:00Z') })
    .where(eq(images.id, ids.a1));
  await t.db
    .update(images)
    // A formula as file name, as a client could send it (a multipart client encodes the quotes, so it is set here).
    .set({ createdAt: at('2026-03-02T10:00:00Z'), orginalFilename: '=HYPERLINK("http://evil","x").png' })
    .where(eq(images.id, ids.a2));
  await t.db
    .update(images)
    .set({ createdAt: at('2026-03-03T10:00:00Z') })
    .where(eq(images.id, ids.a3));
  await t.db
    .update(images)
    .set({ createdAt: at('2020-01-15T23:30:00Z'), allowedTrainingUse: true })
    .where(eq(images.id, ids.b1));
  await bob.client.ok(imageLibraryApi.remove, { body: { imageIds: [ids.b1] } });
});
afterAll(async () => {
  await t?.close();
});

const idsOf = (list: AdminImage[]) => list.map((i) => i.id);

describe('GET /admin/images', () => {
  it('answers every image with its owner, newest first by default, paged with x-next-page', async () => {
    const all = await admin.client.call(adminImagesApi.list);
    expect(all.status).toBe(200);
    expect(idsOf(all.body)).toEqual([ids.a3, ids.a2, ids.a1, ids.b1]);
    expect(all.headers.get('x-next-page')).toBeNull();
    const row = all.body.find((i) => i.id === ids.b1)!;
    expect(row).toMatchObject({
      orginalFilename: 'b1.png',
      isDeleted: true,
      allowedTrainingUse: true,
      owner: { id: bob.id, name: 'Bob', surname: 'Adams' },
    });
    expect(row.deletedAt).not.toBeNull();

    const first = await admin.client.call(adminImagesApi.list, { query: { pageSize: 3 } });
    expect(idsOf(first.body)).toEqual([ids.a3, ids.a2, ids.a1]);
    expect(first.headers.get('x-next-page')).toBe('2');
    const second = await admin.client.call(adminImagesApi.list, { query: { pageSize: 3, page: 2 } });
    expect(idsOf(second.body)).toEqual([ids.b1]);
    expect(second.headers.get('x-next-page')).toBeNull();
  });

  it('sorts by date ascending and by owner', async () => {
    const asc = await admin.client.ok(adminImagesApi.list, { query: { sortKey: 'createdAt', sortOrder: 'asc' } });
    expect(idsOf(asc)).toEqual([ids.b1, ids.a1, ids.a2, ids.a3]);
    const byOwner = await admin.client.ok(adminImagesApi.list, { query: { sortKey: 'owner', sortOrder: 'asc' } });
    expect(byOwner.map((i) => i.owner.surname)).toEqual(['Adams', 'Zimmer', 'Zimmer', 'Zimmer']);
    const byOwnerDesc = await admin.client.ok(adminImagesApi.list, { query: { sortKey: 'owner', sortOrder: 'desc' } });
    expect(byOwnerDesc.map((i) => i.owner.surname)).toEqual(['Zimmer', 'Zimmer', 'Zimmer', 'Adams']);
  });

  it('filters by owner, days (inclusive, UTC), training and deletion', async () => {
    const q = async (query: Record<string, unknown>) => idsOf(await admin.client.ok(adminImagesApi.list, { query }));
    expect(await q({ userId: bob.id })).toEqual([ids.b1]);
    expect(await q({ userId: alice.id, sortOrder: 'asc' })).toEqual([ids.a1, ids.a2, ids.a3]);
    expect(await q({ startDate: '2020-01-15', endDate: '2020-01-15' })).toEqual([ids.b1]);
    expect(await q({ startDate: '2026-03-02' })).toEqual([ids.a3, ids.a2]);
    expect(await q({ endDate: '2026-03-01' })).toEqual([ids.a1, ids.b1]);
    expect(await q({ isDeleted: true })).toEqual([ids.b1]);
    expect(await q({ isDeleted: false })).toEqual([ids.a3, ids.a2, ids.a1]);
    expect(await q({ allowedTrainingUse: true })).toEqual([ids.b1]);
    expect(await q({ allowedTrainingUse: false, userId: alice.id })).toEqual([ids.a3, ids.a2, ids.a1]);
  });

  it('refuses a start after the end and impossible days, naming the field', async () => {
    const range = await admin.client.call(adminImagesApi.list, { query: { startDate: '2026-03-03', endDate: '2026-03-01' } });
    expect(range.status).toBe(400);
    expect(range.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((range.body as never as { details: { field: string; message: string }[] }).details).toEqual([
      expect.objectContaining({ field: 'endDate', message: 'The end date must not be before the start date.' }),
    ]);
    const day = await admin.client.call(adminImagesApi.list, { query: { startDate: '2026-02-31' } });
    expect(day.status).toBe(400);
    expect((day.body as never as { details: { field: string }[] }).details[0].field).toBe('startDate');
    const format = await admin.client.get('/api/admin/images?startDate=03.01.2026');
    expect(format.status).toBe(400);
    const sortKey = await admin.client.get('/api/admin/images?sortKey=email');
    expect(sortKey.status).toBe(400);
  });

  it('lists the owners of images for the Owner filter, searchable', async () => {
    const all = await admin.client.ok(adminImagesApi.owners);
    expect(all.map((o) => o.id)).toEqual([bob.id, alice.id]);
    const found = await admin.client.ok(adminImagesApi.owners, { query: { search: 'zimm' } });
    expect(found.map((o) => o.id)).toEqual([alice.id]);
    expect(await admin.client.ok(adminImagesApi.owners, { query: { search: '%' } })).toEqual([]);
  });

  it("lets staff who review jobs, and no other user, see a customer's thumbnail", async () => {
    const own = await admin.client.call(imagesApi.thumbnail, { params: { id: ids.a1 } });
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('image/webp');
    // b1 was deleted by its owner: its files are freed (issue 28 item 3), so even ADMIN gets 404
    expect((await admin.client.call(imagesApi.thumbnail, { params: { id: ids.b1 } })).status).toBe(404);
    // reviewers see customers' images too (issue 26 item 2): EDITOR, and a POWER_USER with JOB.READ; other users do not
    for (const c of [editor.client, power.client]) expect((await c.call(imagesApi.thumbnail, { params: { id: ids.a1 } })).status).toBe(200);
    expect((await bob.client.call(imagesApi.thumbnail, { params: { id: ids.a1 } })).status).toBe(404);
    expect((await anonymous.call(imagesApi.thumbnail, { params: { id: ids.a1 } })).status).toBe(401);
  });
});

describe('GET /admin/images/metadata-report', () => {
  it('streams one CSV line per image with formula cells neutralised', async () => {
    const res = await admin.client.call(adminImagesApi.metadataReport);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="images-metadata-\d{4}-\d{2}-\d{2}\.csv"$/);
    // Streamed: sent in chunks, no length known in advance.
    expect(res.headers.get('content-length')).toBeNull();
    const text = res.buffer.toString('utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).trimEnd().split('\r\n');
    // Readable headers in the admin's language (English) with units; their CSV style (comma decimals by default: `;`).
    expect(lines[0]).toBe(
      'Image ID;File name;Owner ID;Owner e-mail;Owner;Format;Width (px);Height (px);Bit depth (bit);File size (bytes);SHA-256;Pixel size (µm/px);Validated;Training use allowed;Deleted;Deleted at (UTC);Uploaded (UTC)',
    );
    expect(lines).toHaveLength(5);
    expect(lines.slice(1).map((l) => l.split(';')[0])).toEqual([ids.a3, ids.a2, ids.a1, ids.b1]);
    expect(lines[2]).toContain(`;"'=HYPERLINK(""http://evil"",""x"").png";`);
    expect(lines[4]).toContain(`${ids.b1};b1.png;${bob.id};${bob.email};Bob Adams;png;120;80;8;`);
    expect(lines[4]).toMatch(/;yes;yes;\d{4}-\d{2}-\d{2}T[^;]+Z;2020-01-15T23:30:00.000Z$/);
  });

  it('reads the images in keyset batches: every image once, newest first, whatever the batch size', async () => {
    // Two images with the very same time: the keyset must still take each exactly once.
    await t.db
      .update(images)
      .set({ createdAt: new Date('2026-03-02T10:00:00Z') })
      .where(eq(images.id, ids.a3));
    try {
      for (const size of [1, 2, 3, 10]) {
        const seen: string[] = [];
        for await (const batch of reportBatches(t.db, size)) {
          expect(batch.length).toBeLessThanOrEqual(size);
          seen.push(...batch.map((r) => r.id));
        }
        expect(new Set(seen).size).toBe(4);
        expect(seen).toHaveLength(4);
        expect(seen[3]).toBe(ids.b1);
      }
    } finally {
      await t.db
        .update(images)
        .set({ createdAt: new Date('2026-03-03T10:00:00Z') })
        .where(eq(images.id, ids.a3));
    }
  });
});

describe('authorization matrix', () => {
  const calls = [
    ['list', (c: HttpClient) => c.call(adminImagesApi.list)],
    ['owners', (c: HttpClient) => c.call(adminImagesApi.owners)],
    ['metadata report', (c: HttpClient) => c.call(adminImagesApi.metadataReport)],
  ] as const;
  it.each(calls)('%s: ADMIN only (anonymous 401; USER, EDITOR and a POWER_USER with every privilege 403)', async (_name, run) => {
    expect((await run(anonymous)).status).toBe(401);
    for (const c of [alice.client, editor.client, power.client]) {
      const res = await run(c);
      expect(res.status).toBe(403);
      expect((res.body as unknown as { code: string }).code).toBe('FORBIDDEN');
    }
    expect((await run(admin.client)).status).toBe(200);
  });
});
