import { count } from 'drizzle-orm';
import { Type } from 'typebox';
import { VersionInfo } from '@lamella/contracts';
import { isLanguage, mergeTrees, translations, type TranslationTree } from '@lamella/i18n';
import type { App, Ctx } from '../../app.ts';
import { notFound } from '../../platform/http/errors.ts';
import { users } from '../../platform/db/schema/index.ts';
import { getSetting } from './settings.ts';
import { defaultTerms } from './default-terms.ts';

const Check = Type.Object({ ok: Type.Boolean(), kind: Type.String(), error: Type.Optional(Type.String()) });
const Health = Type.Object({ status: Type.String(), version: Type.String(), database: Check, storage: Check, mail: Check });

async function check(kind: string, probe: () => Promise<boolean>) {
  try {
    return { ok: await probe(), kind };
  } catch (err) {
    return { ok: false, kind, error: err instanceof Error ? err.message : String(err) };
  }
}

/** Health, version, translations, terms and the user count. */
export async function systemRoutes(app: App, ctx: Ctx): Promise<void> {
  app.get('/health', { config: { auth: 'public' }, schema: { tags: ['system'], response: { 200: Health, 503: Health } } }, async (_req, reply) => {
    const [database, storage, mail] = await Promise.all([
      check(ctx.database.kind, () => ctx.database.ping()),
      check(ctx.storage.driver, () => ctx.storage.ping()),
      check(ctx.mailer.transport, () => ctx.mailer.ping()),
    ]);
    const ok = database.ok && storage.ok && mail.ok;
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', version: ctx.version, database, storage, mail });
  });

  app.get('/version', { config: { auth: 'public' }, schema: { tags: ['system'], response: { 200: VersionInfo } } }, async () => ({
    version: ctx.version,
    environment: ctx.config.environment,
  }));

  app.get(
    '/languages/:lng',
    { config: { auth: 'public' }, schema: { tags: ['system'], params: Type.Object({ lng: Type.String({ maxLength: 10 }) }) } },
    async (request, reply) => {
      const { lng } = request.params;
      if (!isLanguage(lng)) throw notFound('language');
      const overrides = await getSetting<Record<string, TranslationTree>>(ctx.db, 'translationOverrides', {});
      reply.header('cache-control', 'no-cache');
      return mergeTrees(translations[lng], overrides[lng] ?? {});
    },
  );

  app.get(
    '/terms/:lng',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['system'],
        params: Type.Object({ lng: Type.String({ maxLength: 10 }) }),
        response: { 200: Type.Object({ content: Type.String() }) },
      },
    },
    async (request) => {
      const lng = isLanguage(request.params.lng) ? request.params.lng : 'en';
      const terms = await getSetting<Record<string, string>>(ctx.db, 'terms', {});
      return { content: terms[lng] ?? defaultTerms[lng as 'en' | 'de'] };
    },
  );

  app.get(
    '/users/count',
    { config: { auth: 'user' }, schema: { tags: ['system'], response: { 200: Type.Object({ count: Type.Integer() }) } } },
    async () => {
      const [row] = await ctx.db.select({ n: count() }).from(users);
      return { count: Number(row.n) };
    },
  );
}
