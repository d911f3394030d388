import { flushKeyUse } from './platform/auth/key-usage.ts';
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { DestinationStream } from 'pino';
import zlib from 'node:zlib';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RawServerDefault,
} from 'fastify';
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
import { registerGuard, type Guard } from './platform/auth/guard.ts';
import { checkRoute, openApiNaming } from './platform/http/route-rules.ts';
import { completeDocument, loadFacts } from './platform/http/openapi-document.ts';
import { RateLimiter, type Limiter } from './platform/http/rate-limit.ts';
import type { RedisRateLimiter } from './platform/http/rate-limit-redis.ts';
import { registerSecurityHeaders } from './platform/http/security-headers.ts';
import type { LazySchemas } from './platform/http/lazy-schemas.ts';
import { systemRoutes } from './modules/system/routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { usersRoutes } from './modules/users/routes.ts';
import { twoFactorRoutes } from './modules/two-factor/routes.ts';
import { accessKeysRoutes } from './modules/access-keys/routes.ts';
import { catalogRoutes } from './modules/catalog/routes.ts';
import { computeModelsRoutes } from './modules/compute-models/routes.ts';
import { computeNodesRoutes } from './modules/compute-nodes/routes.ts';
import { imagesRoutes } from './modules/images/routes.ts';
import { calibrationsRoutes } from './modules/calibrations/routes.ts';
import { recipesRoutes } from './modules/recipes/routes.ts';
import { createClassifierWorker } from '@lamella/analysis/classifier';
import { jobsRoutes } from './modules/jobs/routes.ts';
import { feedbackRoutes } from './modules/feedback/routes.ts';
import { masksRoutes } from './modules/masks/routes.ts';
import { sandboxRoutes } from './modules/sandbox/routes.ts';
import { templatesRoutes } from './modules/templates/routes.ts';
import { vouchersRoutes } from './modules/vouchers/routes.ts';
import { adminJobsRoutes } from './modules/admin-jobs/routes.ts';
import { customizationsRoutes } from './modules/customizations/routes.ts';
import { notificationsRoutes } from './modules/notifications/routes.ts';
import { projectsRoutes } from './modules/projects/routes.ts';
import { adminUsersRoutes } from './modules/admin-users/routes.ts';
import { auditImpersonatedWrites } from './modules/admin-users/impersonation-audit.ts';
import { registerInputGuard } from './platform/http/input-guard.ts';
import { adminDashboardRoutes } from './modules/admin-dashboard/routes.ts';
import { auditRoutes } from './modules/audit/routes.ts';
import { configureImageWorkers } from './modules/images/decode-pool.ts';
import { Dispatcher, type JobEvents } from './modules/jobs/dispatcher.ts';
import { TrainingDispatcher } from './modules/training-runs/dispatcher.ts';
import { trainingRunsRoutes } from './modules/training-runs/routes.ts';
import { attachRealtime, SocketSessionWatch, type Realtime } from './platform/realtime/realtime.ts';
import { listNotifications, notifyJobEnded } from './modules/notifications/service.ts';
import { activateInvitations, projectForJobs } from './modules/projects/service.ts';
import { findOwnJob, jobListCache, writeUnderJobLock, type JobsPageAnswer } from './modules/jobs/service.ts';
import { adminListCache } from './modules/admin-jobs/service.ts';
import type { SettingsResolver } from './modules/jobs/settings.ts';
import { resolveJobSettings } from './modules/customizations/service.ts';
import { insightsRoutes } from './modules/insights/routes.ts';
import { termsRoutes } from './modules/terms/routes.ts';
import { translationsRoutes } from './modules/translations/routes.ts';
import { newsRoutes } from './modules/news/routes.ts';
import { registerServerTiming } from './platform/http/server-timing.ts';
import { registerCompression } from './platform/http/compression.ts';
import { reportsRoutes } from './modules/reports/routes.ts';
import { resultFormatsRoutes } from './modules/result-formats/routes.ts';
import { settingsRoutes } from './modules/settings/routes.ts';
import { adminImagesRoutes } from './modules/admin-images/routes.ts';
import { publicImageFileRoutes, publicImagesRoutes } from './modules/public-images/routes.ts';
import { groupsRoutes } from './modules/groups/routes.ts';
import { meteredStorage } from './modules/storage-usage/metered.ts';
import type { LauncherSupervisor } from './platform/compute/supervisor.ts';
import { CHANNELS, ChangeCache, ChangeFeed } from './platform/db/change-cache.ts';
import { authenticate, type AuthContext, type SessionLookupRow, type SessionOptions } from './platform/auth/session.ts';
import { sessionHints } from './platform/http/session-hints.ts';
import { firstScreenPage, hasFirstScreen, seesFirstScreen } from './platform/http/first-screen.ts';
import { fastifyLogger } from './platform/observability/logger.ts';
import { Metrics, cacheMeter } from './platform/observability/metrics.ts';
import { registerHttpTracing } from './platform/observability/tracing.ts';

export interface AppDeps {
  config: Config;
  database: Database;
  storage: Storage;
  mailer: Mailer;
  limiter?: Limiter;
  version?: string;
  /** Starts and stops launcher processes of `local` nodes (npm start, tests). */
  launchers?: LauncherSupervisor;
  /** The built web app (default apps/web/dist). */
  webDist?: string;
  /** Where the JSON log lines go (tests read them); default stdout, and none while testing. */
  logStream?: DestinationStream;
  /** Route schemas compiled on first use (`npm start`, lazy-schemas.ts); default: while the server gets ready. */
  lazySchemas?: LazySchemas;
}

/** What every domain module receives. */
export interface Ctx {
  config: Config;
  db: Database['db'];
  database: Database;
  storage: Storage;
  mailer: Mailer;
  limiter: Limiter;
  version: string;
  sessionOptions: SessionOptions;
  /** The answered job lists (change-cache.ts), null when LIST_CACHE_SECONDS is 0. */
  listCaches: { own: ChangeCache<JobsPageAnswer>; admin: ChangeCache<string> } | null;
  realtime: Realtime;
  dispatcher: Dispatcher;
  /** Training runs (issue 25): QUEUED runs to launchers that can train. */
  trainingDispatcher: TrainingDispatcher;
  jobEvents: JobEvents;
  /** The customization settings a user's jobs of a model run with (createJobs). */
  resolveSettings: SettingsResolver;
  launchers: LauncherSupervisor | null;
  /** Prometheus metrics (`METRICS_TOKEN` set), else null. */
  metrics: Metrics | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: Ctx;
    contractDebt: string[];
  }
}

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

const defaultWebDist = join(dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export async function buildApp(deps: AppDeps): Promise<App> {
  const app = Fastify({
    // JSON lines (platform/observability/logger.ts); request ids are UUIDs, answered in `x-request-id`
    logger: deps.logStream
      ? fastifyLogger(deps.config.logLevel, 'server', deps.logStream)
      : deps.config.environment === 'testing'
        ? false
        : fastifyLogger(deps.config.logLevel, 'server'),
    genReqId: () => randomUUID(),
    logController: new LogController({ disableRequestLogging: process.env.LOG_REQUESTS !== '1' }),
    // Client addresses come from the socket unless TRUST_PROXY names the proxies in front (README).
    // (a number is a hop count: Fastify supports it, its types do not list it)
    trustProxy: deps.config.trustProxy as boolean | string[],
    // The spec writes some paths with a trailing slash (POST /admin/vouchers/) and some without.
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: 2 * 1024 * 1024,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', allErrors: true } },
    ...(deps.lazySchemas ? { schemaController: deps.lazySchemas.schemaController } : {}),
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Traces (OTEL_EXPORTER_OTLP_ENDPOINT): a span per request, registered before any route so handlers run in it.
  registerHttpTracing(app);
  const metrics = deps.config.metricsToken ? new Metrics() : null;
  if (metrics) {
    app.addHook('onResponse', async (request, reply) => {
      metrics.httpDuration
        .labels(request.method, request.routeOptions.url ?? 'unmatched', String(reply.statusCode))
        .observe(reply.elapsedTime / 1000);
    });
  }
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('x-request-id', reply.request.id);
  });

  // Reads kept between requests and dropped on any change of their rows, by any server (platform/db/change-cache.ts):
  // the guard's session read (SESSION_CACHE_SECONDS) and the job lists (LIST_CACHE_SECONDS).
  const changes = new ChangeFeed();
  const sessionCache =
    deps.config.sessionCacheSeconds > 0
      ? new ChangeCache<SessionLookupRow>({ channels: [CHANNELS.auth], ttlSeconds: deps.config.sessionCacheSeconds })
      : null;
  const listCaches =
    deps.config.listCacheSeconds > 0
      ? { own: jobListCache(deps.config.listCacheSeconds), admin: adminListCache(deps.config.listCacheSeconds) }
      : null;
  for (const cache of [sessionCache, listCaches?.own, listCaches?.admin]) if (cache) changes.subscribe(cache);
  // Sockets of ended sessions are closed (any replica's sign-out reaches every replica through the same NOTIFY).
  const socketSessions = new SocketSessionWatch();
  changes.subscribe(socketSessions);
  if (sessionCache) sessionCache.meter = cacheMeter(metrics, 'session');
  if (listCaches) {
    listCaches.own.meter = cacheMeter(metrics, 'job_list');
    listCaches.admin.meter = cacheMeter(metrics, 'admin_job_list');
  }
  await changes.start(deps.database);
  // This server's own writes are seen by the next request at once, without waiting for the notification: a request
  // that may write (any method but GET/HEAD/OPTIONS) empties the caches before it is answered, and a job event
  // drops the owner's lists before it is sent (the browser refetches on it).
  app.addHook('onSend', async (request, _reply, payload) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS') changes.localChange();
    return payload;
  });
  const sessionOptions = {
    ttlDays: deps.config.sessionTtlDays,
    secureCookies: deps.config.publicUrl.startsWith('https://'),
    cache: sessionCache,
  };
  const db = deps.database.db;
  // REDIS_URL: socket.io fan-out and rate limits shared by every replica (README "Deployment").
  // The redis client, its socket.io adapter and the Redis limiter are loaded only then (a start without them is faster).
  const redis = deps.config.redisUrl
    ? await (await import('./platform/redis/redis.ts')).openRedis(deps.config.redisUrl, deps.config.redisPrefix, (m) => app.log.warn(m))
    : null;
  const RedisLimiter: typeof RedisRateLimiter | null = redis ? (await import('./platform/http/rate-limit-redis.ts')).RedisRateLimiter : null;
  const realtime = attachRealtime(
    app.server,
    db,
    sessionOptions,
    { notifications: async (userId) => listNotifications(db, userId) },
    redis?.socketAdapter(),
  );
  socketSessions.attach(realtime);
  /** Socket events to a user; a `job` event first drops the owner's answered lists (they refetch on it). */
  const emitToUser: Realtime['emitToUser'] = (userId, event, payload) => {
    if (event === 'job') {
      listCaches?.own.drop(userId);
      listCaches?.admin.clear();
    }
    realtime.emitToUser(userId, event, payload);
  };
  // every write and delete of a user's file is recorded with its size (quotas, issue 28 item 3)
  const storage = meteredStorage(deps.storage, deps.database.db);
  const dispatcher = new Dispatcher({
    db: deps.database.db,
    storage,
    notify: emitToUser,
    jobEnded: (job) => void notifyJobEnded(db, realtime, job).catch((e: Error) => app.log.warn(`job notification failed: ${e.message}`)),
    log: (m) => app.log.warn(m),
    logger: app.log.child({ component: 'dispatcher' }),
    metrics,
    soleDispatcher: deps.database.kind === 'pglite',
    leaseMs: deps.config.jobLeaseSeconds * 1000,
    maxResultBytes: deps.config.maxResultMb * 1024 * 1024,
    networks: { secret: deps.config.secret, serverUrl: (ip) => serverUrlFor(ip) },
  });
  /** The server's address as a launcher at `ip` reaches it: this process's port on loopback for local launchers, else PUBLIC_URL. */
  const serverUrlFor = (ip: string) => {
    const address = app.server.address();
    const loopback = ip === 'localhost' || ip === '::1' || ip.startsWith('127.');
    return loopback && typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : deps.config.publicUrl;
  };
  const trainingDispatcher = new TrainingDispatcher({
    db: deps.database.db,
    storage,
    notify: emitToUser,
    secret: deps.config.secret,
    serverUrl: serverUrlFor,
    log: (m) => app.log.warn(m),
    soleDispatcher: deps.database.kind === 'pglite',
    leaseMs: deps.config.jobLeaseSeconds * 1000,
  });
  configureImageWorkers({
    workers: deps.config.imageWorkers,
    memoryMb: deps.config.imageWorkerMemoryMb,
    decodeMaxMb: deps.config.imageDecodeMaxMb,
  });
  const ctx: Ctx = {
    config: deps.config,
    db: deps.database.db,
    database: deps.database,
    storage,
    mailer: deps.mailer,
    limiter:
      deps.limiter ??
      (redis && RedisLimiter
        ? RedisLimiter.withSignupLimit(redis.client, deps.config.signupLimitPerHour, `${redis.prefix}rate:`)
        : RateLimiter.withSignupLimit(deps.config.signupLimitPerHour)),
    version: deps.version ?? '0.0.0',
    sessionOptions,
    listCaches,
    realtime,
    dispatcher,
    trainingDispatcher,
    jobEvents: dispatcher,
    resolveSettings: resolveJobSettings,
    launchers: deps.launchers ?? null,
    metrics,
  };
  if (metrics) {
    metrics.onCollect(async () => {
      metrics.jobs.reset();
      for (const r of await dispatcher.jobCounts()) metrics.jobs.labels(r.status, r.model).set(r.count);
    });
    metrics.onCollect(() => {
      for (const m of [metrics.launcherHealthy, metrics.launcherSlots, metrics.launcherBusySlots]) m.reset();
      for (const l of dispatcher.launcherStates()) {
        metrics.launcherHealthy.labels(l.id).set(l.healthy ? 1 : 0);
        metrics.launcherSlots.labels(l.id).set(l.slots);
        metrics.launcherBusySlots.labels(l.id).set(l.busy);
      }
    });
    metrics.onCollect(() => {
      const pool = deps.database.poolStats?.() ?? { total: 1, idle: 0, waiting: 0 };
      metrics.dbPool.labels('total').set(pool.total);
      metrics.dbPool.labels('idle').set(pool.idle);
      metrics.dbPool.labels('waiting').set(pool.waiting);
    });
  }
  app.decorate('ctx', ctx);
  /** API routes that do not yet meet the contract rules (route-rules.ts); the contract test requires none. */
  const contractDebt: string[] = [];
  app.decorate('contractDebt', contractDebt);
  app.addHook('onReady', () => dispatcher.start());
  app.addHook('onReady', () => trainingDispatcher.start());
  // recipes (issue 22) train and preview in a worker thread, off the event loop
  const classifier = createClassifierWorker();
  app.addHook('onClose', async () => {
    await classifier.close();
    await trainingDispatcher.stop();
    await dispatcher.stop();
    await flushKeyUse(db);
    await realtime.close();
    await redis?.close();
    await changes.stop();
  });

  // gzip/brotli for text (the web app's scripts, JSON, CSV exports) when the client asks; images go as they are.
  // Bodies in memory: one-shot, kept per encoding (compression.ts); streams: @fastify/compress.
  registerCompression(app);
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await registerSecurityHeaders(app, { https: deps.config.publicUrl.startsWith('https://') });
  await app.register(cookie);
  // Per-file backstop; the upload routes stream files to disk and enforce MAX_UPLOAD_MB / MAX_UPLOAD_REQUEST_MB and quotas.
  await app.register(multipart, { limits: { fileSize: Math.floor(deps.config.maxUploadMb * 1024 * 1024), files: 50, fields: 20 } });
  app.addSchema(ApiErrorBody);
  /** operationId → guard, for the OpenAPI document's security and error answers (openapi-document.ts). */
  const operationGuards = new Map<string, Guard>();
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
    ...openApiNaming((doc) => completeDocument(doc, operationGuards, loadFacts())),
    refResolver: { buildLocalReference: (json, _base, _frag, i) => String(json.$id ?? `def-${i}`) },
  });
  // No online validator badge: the docs page loads nothing from other origins (CSP, security-headers.ts).
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { validatorUrl: null } });

  registerErrorHandler(app);
  registerGuard(app, ctx.db, ctx.sessionOptions, ctx.limiter);
  // every log line of a signed-in request names the user (by id only)
  app.addHook('preHandler', async (request, reply) => {
    if (request.auth) request.log = reply.log = request.log.child({ userId: request.auth.user.id });
  });
  auditImpersonatedWrites(app, ctx.db);
  registerInputGuard(app);
  registerServerTiming(app);

  await app.register(
    async (plugin) => {
      plugin.addHook('onRoute', (route) => {
        checkRoute(route, contractDebt);
        const operationId = (route.schema as { operationId?: string } | undefined)?.operationId;
        if (operationId && route.config?.auth) operationGuards.set(operationId, route.config.auth);
      });
      const api = plugin.withTypeProvider<TypeBoxTypeProvider>();
      const { db, mailer, limiter, storage } = ctx;
      const publicUrl = ctx.config.publicUrl;
      await api.register(systemRoutes, {
        db,
        database: ctx.database,
        storage,
        mailer,
        version: ctx.version,
        environment: ctx.config.environment,
        healthyLaunchers: () => dispatcher.launcherStates().filter((l) => l.healthy).length,
        metrics: metrics ? { token: ctx.config.metricsToken, scrape: () => metrics.scrape() } : undefined,
      });
      await api.register(authRoutes, { db, mailer, limiter, publicUrl, sessionOptions: ctx.sessionOptions });
      await api.register(usersRoutes, { db, storage, mailer, limiter, publicUrl });
      await api.register(twoFactorRoutes, { db, limiter, sessionOptions: ctx.sessionOptions });
      await api.register(accessKeysRoutes, { db: ctx.db });
      await api.register(catalogRoutes, { db: ctx.db });
      await api.register(computeModelsRoutes, { db: ctx.db });
      await api.register(computeNodesRoutes, { db: ctx.db, launchers: ctx.launchers, onLauncherReady: (id) => ctx.dispatcher.markHealthy(id) });
      await api.register(imagesRoutes, { db: ctx.db, storage: ctx.storage, config: ctx.config });
      await api.register(calibrationsRoutes, { db: ctx.db });
      await api.register(recipesRoutes, { db: ctx.db, storage: ctx.storage, classifier });
      await api.register(jobsRoutes, {
        db: ctx.db,
        storage: ctx.storage,
        jobEvents: ctx.jobEvents,
        resolveSettings: ctx.resolveSettings,
        projects: projectForJobs,
        listCache: ctx.listCaches?.own ?? null,
      });
      await api.register(feedbackRoutes, { db: ctx.db, jobs: { findOwnJob, writeUnderJobLock } });
      await api.register(masksRoutes, { db: ctx.db, storage: ctx.storage, config: ctx.config, notify: emitToUser });
      await api.register(sandboxRoutes, { jobs: { db: ctx.db, jobEvents: ctx.jobEvents, resolveSettings: ctx.resolveSettings } });
      await api.register(templatesRoutes, { db: ctx.db });
      await api.register(vouchersRoutes, { db: ctx.db });
      await api.register(notificationsRoutes, { db: ctx.db, beforeList: (user) => activateInvitations(ctx, user) });
      await api.register(projectsRoutes, {
        db: ctx.db,
        mailer: ctx.mailer,
        limiter: ctx.limiter,
        realtime: ctx.realtime,
        publicUrl: ctx.config.publicUrl,
        storage: ctx.storage,
      });
      await api.register(adminUsersRoutes, { db: ctx.db, storage: ctx.storage, sessionOptions: ctx.sessionOptions });
      await api.register(adminDashboardRoutes, { db: ctx.db });
      await api.register(auditRoutes, { db: ctx.db });
      await api.register(adminJobsRoutes, {
        db: ctx.db,
        databaseKind: ctx.database.kind,
        listCache: ctx.listCaches?.admin ?? null,
        jobEvents: ctx.jobEvents,
      });
      await api.register(customizationsRoutes, { db: ctx.db });
      await api.register(insightsRoutes, { db: ctx.db });
      await api.register(newsRoutes, { db: ctx.db });
      await api.register(resultFormatsRoutes, { db: ctx.db, storage: ctx.storage });
      await api.register(reportsRoutes, { db: ctx.db, storage: ctx.storage });
      await api.register(settingsRoutes, {
        db: ctx.db,
        mailer: ctx.mailer,
        storage: ctx.storage,
        launchers: ctx.launchers,
        publicUrl: ctx.config.publicUrl,
        monitoringUrl: ctx.config.monitoringUrl,
        reminderIntervalSeconds: ctx.config.reminderIntervalSeconds,
      });
      await api.register(termsRoutes, { db: ctx.db });
      await api.register(translationsRoutes, { db: ctx.db });
      await api.register(adminImagesRoutes, { db: ctx.db });
      await api.register(publicImagesRoutes, { db: ctx.db, storage: ctx.storage, config: ctx.config });
      await api.register(groupsRoutes, { db: ctx.db, realtime: ctx.realtime });
      await api.register(trainingRunsRoutes, { db: ctx.db, storage: ctx.storage, dispatcher: ctx.trainingDispatcher, secret: ctx.config.secret });
    },
    { prefix: '/api' },
  );
  // Public images are read outside /api by everyone (the rich text of insights and news), before the web app's fallback.
  await app.register(publicImageFileRoutes, { db: ctx.db, storage: ctx.storage, config: ctx.config });
  app.get('/api/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, async () => app.swagger());

  const webDist = deps.webDist ?? defaultWebDist;
  const hasWeb = existsSync(join(webDist, 'index.html'));
  // wildcard: files are looked up per request, so a rebuilt web app is served without a restart.
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      index: false,
      // the build writes each text file also as .br and .gz (apps/web/vite.config.ts): sent as they are
      preCompressed: true,
      // the prerendered first screen's pages are sent by the fallback below, to signed-in users only (first-screen.ts)
      allowedPath: (pathName) => !pathName.startsWith('/first-screen/'),
      // Vite names files in assets/ by their content hash: they never change, so browsers may keep them.
      setHeaders: (res, path) => {
        if (path.includes('/assets/')) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  // The static plugin answers a directory (`/`) with 403 when `index` is off; the root is the web app too.
  /** The web app's page: its session hints (session-hints.ts), and for /dashboard its first screen where it has one. */
  const webPage = async (request: FastifyRequest, reply: FastifyReply) => {
    let auth: Promise<AuthContext | null> | undefined;
    const lookup = () => (auth ??= authenticate(ctx.db, request, ctx.sessionOptions));
    await sessionHints(request, reply, lookup);
    // /dashboard for a signed-in user: the page with its first screen already in it (first-screen.ts), theirs only
    if (hasFirstScreen(request.url)) {
      // a failed session lookup costs the prerendered screen only, not the page
      const user = await lookup().catch((error: unknown) => {
        request.log.warn({ err: error }, 'first screen: session lookup failed');
        return null;
      });
      const page = seesFirstScreen(user) ? await firstScreenPage(webDist, user) : null;
      if (page) return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page);
    }
    return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
  };
  if (hasWeb) app.get('/', { config: { auth: 'public' }, schema: { hide: true } }, webPage);
  app.setNotFoundHandler(async (request, reply) => {
    if (request.url.startsWith('/api/') || request.method !== 'GET') {
      return reply.status(404).send({ statusCode: 404, code: 'NOT_FOUND', message: `No route ${request.method} ${request.url.split('?')[0]}` });
    }
    if (!hasWeb) return reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
    return webPage(request, reply);
  });
  return app;
}
