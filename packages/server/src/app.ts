import fs from 'node:fs'
import path from 'node:path'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import cookie from '@fastify/cookie'
import rateLimit from '@fastify/rate-limit'
import fastifyStatic from '@fastify/static'
import swagger from '@fastify/swagger'
import underPressure from '@fastify/under-pressure'
import {
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod'
import type { Clock } from './clock.ts'
import {
  allowedOriginsOf,
  appOriginOf,
  signingSecretOf,
  trustProxyOption,
  type Config,
} from './config.ts'
import type { PoolStats } from './db/database.ts'
import type { Listen } from './db/listen.ts'
import type { Database } from './db/schema.ts'
import { SESSION_COOKIE, sessionCookieName } from '@tipping/contract/constants'
import { isAppPage } from '@tipping/contract/pages'
import { SERVER_TIME_HEADER } from '@tipping/contract/http'
import { createAppPage } from './http/app-page.ts'
import { failure, success } from './http/envelope.ts'
import { registerErrorHandler } from './http/error-handler.ts'
import { registerOriginCheck } from './http/origin-check.ts'
import { securityHeaders } from './http/security-headers.ts'
import { responseSerializer, verifyPreserialised } from './http/serializer.ts'
import {
  authorizeRoutes,
  enforceRoutePolicies,
  grantPolicy,
  isPrivateRoute,
} from './http/route-policy.ts'
import { redactedRequest } from './http/redact-url.ts'
import { SessionGate } from './http/session.ts'
import { strictRequestBodies } from './http/strict-bodies.ts'
import { adminRoutes } from './modules/admin/routes.ts'
import { AdminService } from './modules/admin/service.ts'
import { opsRoutes } from './modules/ops/routes.ts'
import { Metrics, OpsService } from './modules/ops/service.ts'
import { authRoutes, unsubscribeRoutes } from './modules/auth/routes.ts'
import { contentRoutes } from './modules/content/routes.ts'
import { ContentService } from './modules/content/service.ts'
import { AuthService } from './modules/auth/service.ts'
import { HashGate } from './modules/auth/hash-gate.ts'
import { SESSION_CHANGES, SessionCache } from './modules/auth/session-cache.ts'
import { healthRoutes } from './modules/health/routes.ts'
import { leaguesRoutes } from './modules/leagues/routes.ts'
import { headToHeadRoutes } from './modules/leagues/head-to-head/routes.ts'
import { HeadToHeadService } from './modules/leagues/head-to-head/service.ts'
import { archiveRoutes } from './modules/archive/routes.ts'
import { ArchiveService } from './modules/archive/service.ts'
import { projectionsRoutes } from './modules/projections/routes.ts'
import { ProjectionsService } from './modules/projections/service.ts'
import { registerLive } from './modules/live/setup.ts'
import { shareRoutes } from './modules/share/routes.ts'
import { siteRoutes } from './modules/site/routes.ts'
import { hookOrigins, siteAppConfig, SiteService } from './modules/site/service.ts'
import { LeaguesService } from './modules/leagues/service.ts'
import { predictionsRoutes } from './modules/predictions/routes.ts'
import { receiptRoutes } from './modules/predictions/receipt-routes.ts'
import { PredictionsService } from './modules/predictions/service.ts'
import { CurrentCompetitions } from './modules/competitions/service.ts'
import { Publisher } from './modules/publisher/service.ts'
import { resultsRoutes } from './modules/results/routes.ts'
import { scoresRoutes } from './modules/scores/routes.ts'
import { registerSso } from './modules/sso/setup.ts'
import type { DevAccount } from './idp/accounts.ts'
import { ScoresService } from './modules/scores/service.ts'
import { seasonRoutes } from './modules/season/routes.ts'
import { seasonLeagueRoutes } from './modules/season/league-routes.ts'
import { SeasonLeagues, SeasonService } from './modules/season/service.ts'
import { autopilotRoutes } from './modules/autopilot/routes.ts'
import { AutopilotService } from './modules/autopilot/service.ts'
import { ResultsService } from './modules/results/service.ts'
import { AdjustableClock } from './clock.ts'

export interface AppDeps {
  config: Config
  db: Database
  engine: 'pglite' | 'postgres'
  clock: Clock
  /** Queries waiting for a database connection (load shedding); absent: never counted. */
  dbWaiting?: () => number
  /**
   * The database's notices (DatabaseHandle.listen). Absent, the session cache hears only of
   * changes made in this process: right for one process alone and for tests of one app.
   */
  listen?: Listen
  /** Where log lines go (tests read them); absent: standard output. */
  logStream?: { write(line: string): void }
  /** The database pool's figures for the metrics (DatabaseHandle.pool); absent: not exported. */
  dbPool?: () => PoolStats
  /** The development identity provider's accounts; absent: the seeded ones (tests bring others). */
  devSsoAccounts?: readonly DevAccount[]
}

export interface BuiltApp {
  app: FastifyInstance
  publisher: Publisher
  /** The metrics registry to serve on METRICS_PORT (main.ts); null when METRICS_PORT is unset. */
  metrics: Metrics | null
}

/** Builds the whole HTTP app from configuration and its parts; nothing global, nothing listening. */
export async function buildApp(deps: AppDeps): Promise<BuiltApp> {
  const { config, db, clock } = deps
  const app = Fastify({
    logger:
      config.LOG_LEVEL === 'silent'
        ? false
        : {
            level: config.LOG_LEVEL,
            // Sign-in callbacks carry an authorization code in the URL, invite links a join
            // code; neither reaches a log.
            serializers: { req: redactedRequest },
            ...(deps.logStream ? { stream: deps.logStream } : {}),
            redact: [
              'req.headers.cookie',
              'req.headers.authorization',
              'res.headers["set-cookie"]',
            ],
          },
    // Only the configured proxies may name the caller (X-Forwarded-For: the per-address limits)
    // or the scheme (X-Forwarded-Proto: HSTS); by default no one.
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    bodyLimit: 256 * 1024,
  }).withTypeProvider<ZodTypeProvider>()
  // First, so it sees every route: a route without config.policy stops the server starting.
  enforceRoutePolicies(app)
  // Before any route too: an unknown field in a request body is a 400 naming it.
  strictRequestBodies(app)
  // Before any route too: each route's timing hook is attached as it is registered. Nothing is
  // timed unless metrics are served (METRICS_PORT), so the hot path pays only when asked.
  const metrics =
    config.METRICS_PORT === undefined ? null : new Metrics({ db, clock, pool: deps.dbPool })
  metrics?.instrumentHttp(app)
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(responseSerializer({ verify: config.SERIALIZER_VERIFY }))
  if (config.SERIALIZER_VERIFY) verifyPreserialised(app)
  registerErrorHandler(app)
  const siteConfig = siteAppConfig(config)
  const hooks = hookOrigins(siteConfig)

  await app.register(cookie)
  const headers = securityHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // An optional hook's origin is allowed only when it is configured (modules/site).
        scriptSrc: ["'self'", ...hooks.script],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...hooks.connect],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    // Sent below, only on HTTPS answers (behind a proxy: X-Forwarded-Proto from TRUST_PROXY).
    strictTransportSecurity: false,
  })
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(headers)
    // The clock lockouts are judged by, for the browser's countdowns (decision 047).
    reply.header(SERVER_TIME_HEADER, String(clock.now().getTime()))
    if (request.protocol === 'https')
      reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains')
  })
  await app.register(swagger, {
    openapi: { info: { title: 'Big Bash Tipping API', version: '1.0.0' } },
    // The public document describes the public API: admin and test routes are left out.
    transform: (input) => {
      const out = jsonSchemaTransform(input)
      return isPrivateRoute(input.route) ? { ...out, schema: { ...out.schema, hide: true } } : out
    },
  })
  await registerLoadShedding(app, config, deps.dbWaiting)
  registerOriginCheck(app, allowedOriginsOf(config))
  // Limits are opted into per route (sign-in, registration); counters live in memory per process.
  await app.register(rateLimit, { global: false })

  const policy = { idleDays: config.SESSION_IDLE_DAYS, maxDays: config.SESSION_MAX_DAYS }
  // Links in emails use the configured origin, never the request's Host header (which a caller
  // controls, and could point an invitation or a reset link at another site).
  const appOrigin = appOriginOf(config)
  const sessions = new SessionCache(config.SESSION_CACHE_MS)
  if (deps.listen && config.SESSION_CACHE_MS > 0) {
    // Changes to users and sessions from every process, announced by the database at commit.
    const stop = await deps.listen(SESSION_CHANGES, sessions.followNotices())
    app.addHook('onClose', stop)
  }
  const auth = new AuthService(
    db,
    clock,
    policy,
    {
      appOrigin,
      resetTokenMinutes: config.PASSWORD_RESET_TOKEN_MINUTES,
      resetRequestMinMs: 250,
      // Password hashing is bounded per process, so a flood of sign-ins cannot stall the rest.
      hashGate: new HashGate(config.PASSWORD_HASH_CONCURRENCY, config.PASSWORD_HASH_QUEUE),
      resetEmailsPerHour: config.PASSWORD_RESET_REQUESTS_PER_HOUR,
    },
    sessions,
  )
  const gate = new SessionGate(auth, policy, config.COOKIE_SECURE)
  // Before any route is registered: every route's policy is enforced before its input is read.
  authorizeRoutes(app, gate)
  // The current competition of each sport, asked for by every module that serves a sport's reads.
  const competitions = new CurrentCompetitions(db, config.READ_CACHE_MS)
  const predictions = new PredictionsService(
    db,
    clock,
    competitions,
    config.READ_CACHE_MS,
    config.PICK_COUNTS_CACHE_MS,
    signingSecretOf(config),
  )
  const publisher = new Publisher(db, clock, {
    staticDir: config.STATIC_DIR,
    logosDir: path.join(config.DATA_DIR, 'logos'),
    matchCentreUrl: config.MATCH_CENTRE_URL,
    siteConfig,
    engine: deps.engine,
  })

  healthRoutes(app, { db, engine: deps.engine })
  authRoutes(app, {
    auth,
    gate,
    perMinute: config.AUTH_RATE_LIMIT_PER_MINUTE,
    resetRequestsPerHour: config.PASSWORD_RESET_REQUESTS_PER_HOUR,
    loginFailuresBeforeBackoff: config.AUTH_LOGIN_FAILURES_BEFORE_BACKOFF,
    emailTakenPerHour: config.REGISTRATION_EMAIL_TAKEN_PER_HOUR,
    emailTakenGlobalPerHour: config.REGISTRATION_EMAIL_TAKEN_GLOBAL_PER_HOUR,
    now: () => clock.now().getTime(),
  })
  await registerSso(app, {
    config,
    db,
    clock,
    auth,
    gate,
    ...(deps.devSsoAccounts ? { devAccounts: deps.devSsoAccounts } : {}),
  })
  predictionsRoutes(app, { predictions })
  // The open rounds' pick counts, built and kept fresh ahead of their readers (decision 032).
  app.addHook('onReady', async () => predictions.startPickCountWarming())
  app.addHook('onClose', async () => predictions.stopPickCountWarming())
  receiptRoutes(app, { predictions, checksPerMinute: config.RECEIPT_CHECKS_PER_MINUTE })
  // A result is scored on two more of the pool's connections (decision 009); a pool too small to
  // spare them while other jobs wait for the scoring lock scores on the result's own.
  const scoringHelpers = deps.engine === 'postgres' && config.DB_POOL_SIZE >= 4 ? db : undefined
  resultsRoutes(app, { results: new ResultsService(db, clock, publisher, scoringHelpers) })
  const scores = new ScoresService(db, competitions, config.READ_CACHE_MS, config.PAGE_CACHE_MS)
  scoresRoutes(app, { scores })
  seasonRoutes(app, { season: new SeasonService(db, competitions, scores) })
  autopilotRoutes(app, { autopilot: new AutopilotService(db, clock) })
  adminRoutes(app, {
    admin: new AdminService(db, {
      clock,
      publisher,
      sponsorPrefix: config.SPONSOR_PREFIX,
      onUserChanged: (id) => auth.forgetUser(id),
      onCompetitionChanged: () => competitions.forget(),
    }),
  })
  opsRoutes(app, { ops: new OpsService(db, clock) })
  await registerLive(app, {
    config,
    db,
    clock,
    listen: deps.listen,
    // A result through any process moves the scores version (which keys the ladder pages) and
    // what is shared between tippers: read afresh, or a page refetching on the event gets the
    // old ladder for up to twice READ_CACHE_MS.
    onResult: () => {
      competitions.forget()
      scores.forgetShared()
      // The big leagues' ladders at the new scores, built before their readers ask (decision 020).
      void leagues.warmLadders()
    },
  })
  const leagues = new LeaguesService(
    db,
    {
      clock,
      appOrigin,
      invitesPerHour: config.LEAGUE_INVITES_PER_HOUR,
      invitesPerLeaguePerDay: config.LEAGUE_INVITES_PER_LEAGUE_PER_DAY,
      messagesPerHour: config.LEAGUE_MESSAGES_PER_HOUR,
      messageRecipientsPerHour: config.LEAGUE_MESSAGE_RECIPIENTS_PER_HOUR,
      readCacheMs: config.READ_CACHE_MS,
    },
    competitions,
  )
  leaguesRoutes(app, { leagues })
  seasonLeagueRoutes(app, { seasonLeagues: new SeasonLeagues(db, leagues) })
  // A freshly started process builds the big leagues' ladders at once, not on a reader's time.
  app.addHook('onReady', async () => void leagues.warmLadders())
  headToHeadRoutes(app, { headToHead: new HeadToHeadService(db, competitions) })
  projectionsRoutes(app, { projections: new ProjectionsService(db, competitions, leagues) })
  // The season archive and league renewal (issue 31): its own SeasonService, for past competitions.
  archiveRoutes(app, {
    archive: new ArchiveService(
      db,
      competitions,
      new SeasonService(db, competitions, scores),
      leagues,
      { clock, appOrigin },
      config.READ_CACHE_MS,
    ),
  })
  contentRoutes(app, { content: new ContentService(db, publisher) })
  shareRoutes(app, {
    db,
    appOrigin,
    shareCardPath: path.join(config.DATA_DIR, 'share-card.png'),
  })
  await unsubscribeRoutes(app, { auth, secret: signingSecretOf(config) })

  siteRoutes(app, {
    site: new SiteService(db, {
      clock,
      supportEmail: config.SUPPORT_EMAIL,
      appOrigin,
      preregistrationEmailsPerHour: config.PREREGISTRATION_EMAILS_PER_HOUR,
      securityContact: config.SECURITY_CONTACT,
    }),
    gate,
    contactPerHour: config.CONTACT_PER_HOUR,
    preregistrationsPerHour: config.PREREGISTRATIONS_PER_HOUR,
    geoCountryHeader: config.GEO_COUNTRY_HEADER,
  })

  app.get('/api/docs', { config: { policy: 'visitor' }, schema: { hide: true } }, async () =>
    app.swagger(),
  )

  if (config.ENABLE_TEST_ROUTES && clock instanceof AdjustableClock) {
    // Test-only: lets end-to-end tests move time (a match locking while the page is open).
    // Visitor: end-to-end tests call it unsigned; it only exists with ENABLE_TEST_ROUTES.
    app.post(
      '/api/test/clock',
      { config: { policy: 'visitor' }, schema: { hide: true } },
      async (request) => {
        const body = request.body as
          { at?: string; advanceMs?: number; reset?: boolean } | undefined
        if (body?.reset) clock.reset()
        if (body?.at) clock.set(new Date(body.at))
        if (typeof body?.advanceMs === 'number') clock.advance(body.advanceMs)
        return success({ now: clock.now().toISOString() })
      },
    )
  }

  fs.mkdirSync(config.STATIC_DIR, { recursive: true })
  const webIndex = path.join(config.WEB_DIST_DIR, 'index.html')
  const hasWeb = fs.existsSync(webIndex)
  // Published JSON and the built web app are public files: every route they add is a visitor's.
  await app.register(async (scope) => {
    grantPolicy(scope, 'visitor')
    await scope.register(fastifyStatic, {
      root: config.STATIC_DIR,
      prefix: '/static/',
      etag: true,
      lastModified: false,
      // Revalidate every time: the ETag makes it a 304, and a new result shows at once.
      cacheControl: false,
      setHeaders: (res) => {
        res.header('cache-control', 'no-cache')
      },
    })
    if (hasWeb) {
      await scope.register(fastifyStatic, {
        root: config.WEB_DIST_DIR,
        prefix: '/',
        decorateReply: false,
        wildcard: false,
        index: false,
        // The page itself is served only through the app page below (its boot data, preloads and
        // style nonce): as a file it would be a second, incomplete copy of the app at a path no
        // page has.
        allowedPath: (pathName) => pathName !== '/index.html',
        // The build writes .br and .gz copies beside each script and stylesheet (vite.config.ts).
        preCompressed: true,
        setHeaders: (res, file) => {
          if (file.includes(`${path.sep}assets${path.sep}`)) {
            res.header('cache-control', 'public, max-age=31536000, immutable')
          } else if (/[\\/](sw\.js|manifest\.webmanifest)$/.test(file)) {
            // The service worker and the manifest (decision 025): a release is seen at the next
            // visit, by the browser and any cache in between.
            res.header('cache-control', 'no-cache')
          }
        },
      })
    }
  })
  const appPage = hasWeb ? createAppPage(config.WEB_DIST_DIR, config.STATIC_DIR, appOrigin) : null

  app.setNotFoundHandler((request, reply) => {
    const url = request.url
    if (
      url.startsWith('/api/') ||
      url.startsWith('/static/') ||
      // Metrics live on their own listener only (METRICS_PORT): here a plain 404, not the app.
      url === '/metrics' ||
      url.startsWith('/metrics?') ||
      !appPage ||
      (request.method !== 'GET' && request.method !== 'HEAD')
    ) {
      return reply.status(404).send(
        failure([
          {
            code: 'NOT_FOUND',
            message: `No route for ${request.method} ${url.split('?')[0]}`,
            param: null,
          },
        ]),
      )
    }
    // The single-page app owns every other path. A HEAD (an uptime monitor's or a link
    // checker's) is answered as its GET, without the body (Node leaves it out). A path that is
    // no page still gets the app, whose router shows the not-found page, but with a 404.
    const page = appPage.render(
      url,
      reply.getHeader('content-security-policy'),
      // Either cookie name (plain HTTP or Secure): a hint for the page's preloads only.
      [SESSION_COOKIE, sessionCookieName(true)].some((name) => request.cookies[name] !== undefined),
    )
    if (page.csp) reply.header('content-security-policy', page.csp)
    return reply
      .status(isAppPage(url.split('?')[0]!) ? 200 : 404)
      .type('text/html')
      .header('cache-control', 'no-cache')
      .send(page.html)
  })

  return { app, publisher, metrics }
}

/**
 * Overload protection (docs/RELIABILITY.md): when the event loop lags (or heap/RSS pass their
 * limits) new requests are refused at once with 503, the envelope and Retry-After, so the server
 * keeps answering quickly instead of queueing work until everything times out.
 */
async function registerLoadShedding(
  app: FastifyInstance,
  config: Config,
  dbWaiting: (() => number) | undefined,
): Promise<void> {
  const retryAfter = config.PRESSURE_RETRY_AFTER_SECONDS
  const shed = (reply: FastifyReply, reason: string) => {
    void reply.status(503).header('retry-after', String(retryAfter)).header('x-shed-reason', reason)
    return failure([
      {
        code: 'SERVICE_UNAVAILABLE',
        message: 'The server is busy, try again in a few seconds',
        param: null,
      },
    ])
  }

  // A server bound by its database keeps a quiet event loop while requests pile up waiting for a
  // connection: refuse new ones once that queue is long, before any work is spent on them.
  const maxWaiting = config.PRESSURE_MAX_DB_WAITING
  if (maxWaiting > 0 && dbWaiting) {
    app.addHook('onRequest', async (_request, reply) => {
      if (dbWaiting() > maxWaiting) return reply.send(shed(reply, 'databaseQueue'))
    })
  }

  const limits = {
    maxEventLoopDelay: config.PRESSURE_MAX_EVENT_LOOP_DELAY_MS,
    maxEventLoopUtilization: config.PRESSURE_MAX_EVENT_LOOP_UTILIZATION,
    maxHeapUsedBytes: config.PRESSURE_MAX_HEAP_USED_BYTES,
    maxRssBytes: config.PRESSURE_MAX_RSS_BYTES,
  }
  if (Object.values(limits).every((v) => v <= 0)) return
  await app.register(underPressure, {
    ...limits,
    // Utilisation over the last sample, not since the process started.
    eventLoopUtilizationMode: 'interval',
    sampleInterval: config.PRESSURE_SAMPLE_INTERVAL_MS,
    retryAfter,
    // Returning the body makes the plugin send it and stop (returning nothing would go on to the
    // route); its typings only admit void, hence the cast.
    pressureHandler: ((_request: FastifyRequest, reply: FastifyReply, type: string) =>
      shed(reply, type)) as unknown as (
      request: FastifyRequest,
      reply: FastifyReply,
      type: string,
    ) => void,
  })
}
