import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notFound, registerErrorHandler } from './errors.ts';

describe('404 messages name the thing in the caller’s language', () => {
  const app = Fastify();
  beforeAll(async () => {
    registerErrorHandler(app);
    app.get('/recipe', () => Promise.reject(notFound('recipe')));
    app.get('/job', () => Promise.reject(notFound('job')));
    app.get('/image', () => Promise.reject(notFound('image')));
    app.get('/unknown', () => Promise.reject(notFound('executor')));
    await app.ready();
  });
  afterAll(() => app.close());
  const get = async (url: string, lng: string) =>
    (await app.inject({ url, headers: { 'accept-language': lng } })).json<{ statusCode: number; code: string; message: string }>();

  it('German: the thing with its article, not the code’s English name ("recipe wurde nicht gefunden.")', async () => {
    expect(await get('/recipe', 'de-DE')).toEqual({ statusCode: 404, code: 'NOT_FOUND', message: 'Das Rezept wurde nicht gefunden.' });
    expect((await get('/job', 'de')).message).toBe('Der Auftrag wurde nicht gefunden.');
    expect((await get('/image', 'de')).message).toBe('Das Bild wurde nicht gefunden.');
  });

  it('English as before; a thing without a translation as the code names it', async () => {
    expect((await get('/recipe', 'en-US')).message).toBe('The recipe was not found.');
    expect((await get('/image', 'en')).message).toBe('The image was not found.');
    expect((await get('/unknown', 'de')).message).toBe('executor wurde nicht gefunden.');
  });
});
