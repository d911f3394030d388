/**
 * Test data factories: each creates what a test needs through the API (as a client of the real server would) and
 * answers what it created, typed from packages/contracts. Only what the API cannot do goes to the database (the
 * id of a built-in model by its internal name).
 *
 *   const f = factories(t);
 *   const ada = await f.user();                       // signed up, e-mail verified, signed in
 *   const reader = await f.powerUser(['JOB.READ']);   // POWER_USER holding these privileges, signed in again
 *   const image = await f.image(ada);                 // a PNG uploaded by ada
 *   const job = await f.job(ada, { image });          // a job of ada on that image (grain-size by default)
 */
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { adminUsersApi, imagesApi, jobsApi, usersApi, type Image, type Job, type Me, type Permission, type Role } from '@lamella/contracts';
import { computeModels } from '../src/platform/db/schema/index.ts';
import type { HttpClient } from './http-client.ts';
import { ADMIN, STRONG_PASSWORD, type TestApp } from './test-app.ts';

/** A signed-in account: its client (with the session cookie), its credentials and `GET /users/me`. */
export interface TestUser {
  client: HttpClient;
  id: string;
  email: string;
  password: string;
  me: Me;
}

export interface UserOptions {
  /** Sign-up form fields (email, name, surname, company, phone, country…) replacing the defaults. */
  fields?: Record<string, unknown>;
}

export interface ImageOptions {
  width?: number;
  height?: number;
  /** The file name sent with the upload. */
  filename?: string;
  /** Grey level of the whole picture (0–255); images with the same size and level have the same bytes. */
  level?: number;
}

export interface JobOptions {
  /** The image to analyse; a new upload by the same user when absent. */
  image?: Image;
  /** The built-in model's internal name (default `grain-size`). */
  model?: string;
}

export function factories(t: TestApp) {
  let adminUser: TestUser | undefined;

  async function signedIn(email: string, password: string): Promise<TestUser> {
    const { client, res } = await t.signin(email, password);
    if (res.status !== 200) throw new Error(`sign-in of ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
    const me = await client.ok(usersApi.me);
    return { client, id: me.id, email, password, me };
  }

  /** A new USER: signed up through the API, e-mail verified from the received mail, signed in. */
  async function user(opts: UserOptions = {}): Promise<TestUser> {
    const u = await t.signupVerified(opts.fields);
    const me = await u.client.ok(usersApi.me);
    return { client: u.client, id: u.id, email: u.email, password: u.password, me };
  }

  /** The bootstrap ADMIN, signed in (one session per factories() instance). */
  async function admin(): Promise<TestUser> {
    adminUser ??= await signedIn(ADMIN.email, ADMIN.password);
    return adminUser;
  }

  /**
   * A new user with `role`, set by the admin through the API. A role change ends the user's sessions, so the
   * answer's client is a fresh sign-in.
   */
  async function withRole(role: Role, opts: UserOptions = {}): Promise<TestUser> {
    const u = await user(opts);
    if (role === 'USER') return u;
    const { client } = await admin();
    await client.ok(adminUsersApi.setRole, { params: { id: u.id }, body: { role } });
    if (role === 'BLOCKED') return { ...u, me: { ...u.me, role } };
    return signedIn(u.email, u.password);
  }

  /** A POWER_USER holding exactly `permissions` (granted by the admin on the access-control call), signed in. */
  async function powerUser(permissions: readonly Permission[], opts: UserOptions = {}): Promise<TestUser> {
    const u = await withRole('POWER_USER', opts);
    const { client } = await admin();
    const privileges = permissions.map((p) => {
      const [resource, action] = p.split('.');
      return { resource, action };
    });
    await client.ok(adminUsersApi.setAcl, { params: { id: u.id }, body: { privileges } });
    return u;
  }

  /** A PNG uploaded by `owner` through `POST /images`; answers the stored image. */
  async function image(owner: TestUser, opts: ImageOptions = {}): Promise<Image> {
    const { width = 120, height = 80, filename = 'sample.png', level = 90 } = opts;
    const png = await sharp({ create: { width, height, channels: 3, background: { r: level, g: level, b: level } } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(png)], { type: 'image/png' }), filename);
    const [uploaded] = await owner.client.ok(imagesApi.upload, { form });
    if (!uploaded) throw new Error('upload answered no image');
    return uploaded;
  }

  /** The id of a built-in model by its internal name (`grain-size`, `layer`, …). */
  async function modelId(internalName: string): Promise<string> {
    const [row] = await t.db.select({ id: computeModels.id }).from(computeModels).where(eq(computeModels.internalName, internalName));
    if (!row) throw new Error(`no model ${internalName}`);
    return row.id;
  }

  /** A job of `owner` through `POST /jobs` (queued; it runs only when the test app has launchers). */
  async function job(owner: TestUser, opts: JobOptions = {}): Promise<Job> {
    const img = opts.image ?? (await image(owner));
    const model = await modelId(opts.model ?? 'grain-size');
    const [created] = await owner.client.ok(jobsApi.create, { body: { imageIds: [img.id], modelIds: [model] } });
    if (!created) throw new Error('job creation answered no job');
    return created;
  }

  return { user, admin, withRole, powerUser, image, job, modelId, password: STRONG_PASSWORD };
}

export type Factories = ReturnType<typeof factories>;
