import { existsSync } from 'node:fs';
import zlib from 'node:zlib';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ApiErrorBody } from '@lamella/contracts';
import type { Config } from './config.ts';
import type { Database } from './platform/db/client.ts';
import type { Storage } from './platform/storage/storage.ts';
import type { Mailer } from './platform/mail/mailer.ts';
import { registerErrorHandler } from './platform/http/errors.ts';
import { registerGuard } from './platform/auth/guard.ts';
import { checkRoute, openApiNaming } from './platform/http/route-rules.ts';
import { RateLimiter } from './platform/http/rate-limit.ts';
import { systemRoutes } from './modules/system/routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { usersRoutes } from './modules/users/routes.ts';
import { twoFactorRoutes } from './modules/two-factor/routes.ts';
import { accessKeysRoutes } from './modules/access-keys/routes.ts';
import { catalogRoutes } from './modules/catalog/routes.ts';
import { adminRoutes } from './modules/admin/index.ts';
import { imagesRoutes } from './modules/images/routes.ts';
import { jobsRoutes } from './modules/jobs/routes.ts';
import { feedbackRoutes } from './modules/feedback/routes.ts';
import { masksRoutes } from './modules/masks/routes.ts';
import { sandboxRoutes } from './modules/sandbox/routes.ts';
import { templatesRoutes } from './modules/templates/routes.ts';
import { vouchersRoutes } from './modules/vouchers/routes.ts';
import { notificationsRoutes } from './modules/notifications/routes.ts';
import { projectsRoutes } from './modules/projects/routes.ts';
import { adminUsersRoutes } from './modules/admin-users/routes.ts';
import { Dispatcher, type JobEvents } from './modules/jobs/dispatcher.ts';
import { attachRealtime, type Realtime } from './platform/realtime/realtime.ts';
import type { LauncherSupervisor } from './platform/compute/supervisor.ts';

export interface AppDeps {
  config: Config;
  database: Database;
  storage: Storage;
  mailer: Mailer;
  limiter?: RateLimiter;
  version?: string;
  /** Starts and stops launcher processes of `local` nodes (npm start, tests). */
  launchers?: LauncherSupervisor;
  /** The built web app (default apps/web/dist). */
  webDist?: string;
}

/** What every domain module receives. */
export interface Ctx {
  config: Config;
  db: Database['db'];
  database: Database;
  storage: Storage;
  mailer: Mailer;
  limiter: RateLimiter;
  version: string;
  sessionOptions: { ttlDays: number; secureCookies: boolean };
  realtime: Realtime;
  dispatcher: Dispatcher;
  jobEvents: JobEvents;
  launchers: LauncherSupervisor | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: Ctx;
    contractDebt: string[];
  }
}

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

const defaultWebDist = join(dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export const MAX_UPLOAD_BYTES = 200 * 1024 * 1024;

export async function buildApp(deps: AppDeps): Promise<App> {
  const app = Fastify({
    logger: deps.config.environment === 'testing' ? false : { level: deps.config.logLevel },
    logController: new LogController({ disableRequestLogging: process.env.LOG_REQUESTS !== '1' }),
    trustProxy: true,
    // The spec writes some paths with a trailing slash (POST /admin/vouchers/) and some without.
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: 2 * 1024 * 1024,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', allErrors: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const sessionOptions = { ttlDays: deps.config.sessionTtlDays, secureCookies: deps.config.publicUrl.startsWith('https://') };
  const realtime = attachRealtime(app.server, deps.database.db, sessionOptions);
  const dispatcher = new Dispatcher({
    db: deps.database.db,
    storage: deps.storage,
    notify: realtime.emitToUser,
    log: (m) => app.log.warn(m),
    soleDispatcher: deps.database.kind === 'pglite',
  });
  const ctx: Ctx = {
    config: deps.config,
    db: deps.database.db,
    database: deps.database,
    storage: deps.storage,
    mailer: deps.mailer,
    limiter: deps.limiter ?? new RateLimiter(),
    version: deps.version ?? '0.0.0',
    sessionOptions,
    realtime,
    dispatcher,
    jobEvents: dispatcher,
    launchers: deps.launchers ?? null,
  };
  app.decorate('ctx', ctx);
  /** API routes that do not yet meet the contract rules (route-rules.ts); the contract test requires none. */
  const contractDebt: string[] = [];
  app.decorate('contractDebt', contractDebt);
  app.addHook('onReady', () => dispatcher.start());
  app.addHook('onClose', async () => {
    await dispatcher.stop();
    await realtime.close();
  });

  // gzip/brotli for text (the web app's scripts, JSON, CSV exports) when the client asks; images go as they are.
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(cookie);
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 50, fields: 20 } });
  app.addSchema(ApiErrorBody);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Lamella API', version: ctx.version, description: 'Microstructure image analysis platform' },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'lamella_session' },
          accessKey: { type: 'http', scheme: 'bearer' },
        },
      },
      security: [{ session: [] }, { accessKey: [] }],
    },
    ...openApiNaming(),
    refResolver: { buildLocalReference: (json, _base, _frag, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  registerErrorHandler(app);
  registerGuard(app, ctx.db, ctx.sessionOptions);

  await app.register(
    async (plugin) => {
      plugin.addHook('onRoute', (route) => checkRoute(route, contractDebt));
      const api = plugin.withTypeProvider<TypeBoxTypeProvider>();
      await systemRoutes(api, ctx);
      await authRoutes(api, ctx);
      await usersRoutes(api, ctx);
      await twoFactorRoutes(api, ctx);
      await api.register(accessKeysRoutes, { db: ctx.db });
      await catalogRoutes(api, ctx);
      await imagesRoutes(api, ctx);
      await jobsRoutes(api, ctx);
      await feedbackRoutes(api, ctx);
      await masksRoutes(api, ctx);
      await sandboxRoutes(api, ctx);
      await templatesRoutes(api, ctx);
      await vouchersRoutes(api, ctx);
      await notificationsRoutes(api, ctx);
      await projectsRoutes(api, ctx);
      await adminUsersRoutes(api, ctx);
      await adminRoutes(api, ctx);
    },
    { prefix: '/api' },
  );
  app.get('/api/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, async () => app.swagger());

  const webDist = deps.webDist ?? defaultWebDist;
  const hasWeb = existsSync(join(webDist, 'index.html'));
  // wildcard: files are looked up per request, so a rebuilt web app is served without a restart.
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      index: false,
      // Vite names files in assets/ by their content hash: they never change, so browsers may keep them.
      setHeaders: (res, path) => {
        if (path.includes('/assets/')) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  // The static plugin answers a directory (`/`) with 403 when `index` is off; the root is the web app too.
  if (hasWeb)
    app.get('/', { config: { auth: 'public' }, schema: { hide: true } }, (_request, reply) =>
      reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html'),
    );
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.method !== 'GET') {
      return reply.status(404).send({ statusCode: 404, code: 'NOT_FOUND', message: `No route ${request.method} ${request.url.split('?')[0]}` });
    }
    if (!hasWeb) return reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
    return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
  });
  return app;
}
