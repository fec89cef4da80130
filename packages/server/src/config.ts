import net from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'

/** Repository root, so paths work whichever directory a command is run from. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')

/** An address or a CIDR range (`10.0.0.0/8`), or one of proxy-addr's names for a whole class. */
const isProxyAddress = (entry: string): boolean => {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true
  const [address = '', prefix, ...rest] = entry.split('/')
  const family = net.isIP(address)
  if (!family || rest.length > 0) return false
  if (prefix === undefined) return true
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128)
}

/**
 * Which peers may speak for the caller through X-Forwarded-For/-Proto/-Host. Unset or empty: none,
 * so `request.ip` is the socket's peer and no header a caller writes moves a per-address limit. A
 * number: that many proxies in front (only right when nothing reaches the server past them). A
 * list: the proxies' addresses or CIDR ranges. `true` (everyone) is refused: it is the hole.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((v, ctx): false | number | string[] => {
    if (v === '') return false
    if (/^\d+$/.test(v)) return Number(v) === 0 ? false : Number(v)
    const entries = v.split(',').map((e) => e.trim())
    const bad = entries.filter((e) => !isProxyAddress(e))
    if (bad.length === 0) return entries
    ctx.addIssue({
      code: 'custom',
      message: `must be a hop count or a comma-separated list of addresses/CIDRs (not ${bad.map((b) => JSON.stringify(b)).join(', ')})`,
    })
    return z.NEVER
  })

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  /**
   * Public origin of the app; state-changing requests must come from it, and every absolute link
   * (emails, share pages, single sign-on callbacks) is built on it. Unset (not in production):
   * `http://localhost:{PORT}`, see allowedOriginsOf.
   */
  APP_ORIGIN: z
    .url()
    .refine((u) => {
      const url = new URL(u)
      const bare = url.pathname === '/' && !url.search && !url.hash && !url.username
      return (url.protocol === 'https:' || url.protocol === 'http:') && bare && !url.password
    }, 'must be an origin: http(s)://host[:port], with no path')
    // As a browser writes it in the Origin header (lower case, no trailing slash, no default port).
    .transform((u) => new URL(u).origin)
    .optional(),
  TRUST_PROXY: trustProxy.default(false),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  PGLITE_DIR: z.string().default(path.join(REPO_ROOT, 'data/db')),
  STATIC_DIR: z.string().default(path.join(REPO_ROOT, 'data/static')),
  WEB_DIST_DIR: z.string().default(path.join(REPO_ROOT, 'packages/web/dist')),
  DATA_DIR: z.string().default(path.join(REPO_ROOT, 'data')),
  /**
   * `demo` seeds a playable season on an empty database; `none` starts clean. Unset: `demo`, but
   * `none` in production (filled in below, once DEPLOY_ENV is known).
   */
  SEED: z.enum(['demo', 'none']).optional(),
  DEMO_USERS: z.coerce.number().int().min(0).max(100_000).default(300),
  /**
   * The demo (SEED=demo, never in production) plays a Cricsheet match ball by ball as the live
   * feed of each sport's match in progress (modules/live/demo-feed.ts); false turns it off.
   */
  DEMO_LIVE_FEED: bool.default(true),
  /** The demo feed's pause between balls. */
  DEMO_LIVE_FEED_BALL_MS: z.coerce.number().int().min(10).max(600_000).default(2000),
  SPONSOR_PREFIX: z
    .string()
    .regex(/^[a-z0-9]+$/)
    .default('xyz'),
  /** Cookies get `Secure` unless this is false (plain-HTTP development on localhost). */
  COOKIE_SECURE: bool.default(false),
  SESSION_IDLE_DAYS: z.coerce.number().positive().default(30),
  SESSION_MAX_DAYS: z.coerce.number().positive().default(90),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Prometheus metrics on a listener of their own (modules/ops/metrics-server.ts), never on the
   * public port. Unset: no metrics at all (nothing is timed). Loopback unless told otherwise.
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** How often the in-process scheduler runs lockouts and publishing; 0 leaves it to `npm run worker`. */
  SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(0).default(5000),
  /** Match Centre link pattern shown on live and upcoming matches; `{match}` is the match number. */
  MATCH_CENTRE_URL: z
    .url()
    .refine((u) => u.includes('{match}'), 'must contain {match}')
    .optional(),
  /**
   * Brute-force limit on the account routes (sign-in, registration, password reset request and
   * reset, recovery): attempts a minute per address, and per account (email, reset token or user).
   */
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  /**
   * Password reset requests an hour per account from one address (the rest are refused with
   * 429), and reset emails one account is sent an hour however many addresses ask (past it,
   * nothing new is sent and the newest link keeps working).
   */
  PASSWORD_RESET_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).default(5),
  /**
   * Failed sign-ins one account may take, from any addresses, before an exponential back-off
   * (1 s doubling, at most 15 minutes) holds back the addresses that failed; an address that
   * has not failed for the account (the owner elsewhere) is not held back (docs/SECURITY.md).
   */
  AUTH_LOGIN_FAILURES_BEFORE_BACKOFF: z.coerce.number().int().min(1).default(5),
  /**
   * "An account with this email already exists" answers an hour: per address (then every
   * registration from it is refused until the hour is out) and in all; see
   * docs/decisions/011-registration-and-account-enumeration.md.
   */
  REGISTRATION_EMAIL_TAKEN_PER_HOUR: z.coerce.number().int().min(1).default(5),
  REGISTRATION_EMAIL_TAKEN_GLOBAL_PER_HOUR: z.coerce.number().int().min(1).default(1000),
  /**
   * Password hashes (argon2, 19 MiB each) run at once per process, and how many more may wait;
   * past that a sign-in, registration or password change is refused at once with 503 and
   * Retry-After. Keep the concurrency below libuv's thread pool (4 unless UV_THREADPOOL_SIZE).
   */
  PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  PASSWORD_HASH_QUEUE: z.coerce.number().int().min(0).default(16),
  /** How long a password reset link works. */
  PASSWORD_RESET_TOKEN_MINUTES: z.coerce.number().int().min(5).max(1440).default(60),
  /**
   * Outgoing mail: `smtp://user:pass@host:587` or `smtps://...`. Unset, emails wait in the
   * email_outbox table (and are sent once it is set).
   */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Big Bash Tipping <no-reply@tipping.example>'),
  /**
   * The explicit choice to run production without SMTP_URL: emails wait in the email_outbox table
   * (another process or a later SMTP_URL sends them). Production refuses to start with neither.
   */
  MAIL_OUTBOX_ONLY: bool.default(false),
  /** Anti-spam quotas per user per hour: addresses invited to leagues, league messages sent. */
  LEAGUE_INVITES_PER_HOUR: z.coerce.number().int().min(1).default(100),
  LEAGUE_MESSAGES_PER_HOUR: z.coerce.number().int().min(1).default(5),
  /** Recipients of one user's league messages per hour (a message goes to every member). */
  LEAGUE_MESSAGE_RECIPIENTS_PER_HOUR: z.coerce.number().int().min(1).default(5000),
  /**
   * Addresses one league may invite in a day, on top of its commissioner's hourly quota: an
   * account may run many leagues, and each invitation names its league (issue 26, item 7).
   */
  LEAGUE_INVITES_PER_LEAGUE_PER_DAY: z.coerce.number().int().min(1).default(200),
  /** Where contact-form messages are emailed. */
  SUPPORT_EMAIL: z.email().default('support@tipping.example'),
  /**
   * Where security reports go, as /.well-known/security.txt names it (RFC 9116): a `mailto:` or
   * `https:` address. Unset: mailto: the support address.
   */
  SECURITY_CONTACT: z
    .string()
    .regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, 'a mailto: or https:// address')
    .optional(),
  /** Contact messages and pre-registrations allowed per hour from one address. */
  CONTACT_PER_HOUR: z.coerce.number().int().min(1).default(5),
  PREREGISTRATIONS_PER_HOUR: z.coerce.number().int().min(1).default(10),
  /**
   * Pre-registration confirmation emails per hour from the whole site: the form mails any address,
   * so past this the address is still listed but no confirmation goes (issue 26, item 7).
   */
  PREREGISTRATION_EMAILS_PER_HOUR: z.coerce.number().int().min(1).default(500),
  /**
   * Request header carrying the caller's ISO country code, set by the proxy or CDN in front
   * (e.g. `cf-ipcountry`). Unset: the country is unknown (null).
   */
  GEO_COUNTRY_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, 'must be a header name')
    .transform((v) => v.toLowerCase())
    .optional(),
  /** Spec 2: the provider's name in 'Sign up for {brand} Big Bash Tipping'; unset, there is none. */
  BRAND_NAME: z.string().trim().min(1).max(40).optional(),
  /** Store links of the official app shown on the landing page; unset, the link is left out. */
  APP_STORE_URL: z.url().optional(),
  PLAY_STORE_URL: z.url().optional(),
  /** Weekly reminder: how long before a round's first match the untipped are emailed; 0 is off. */
  REMINDER_LEAD_HOURS: z.coerce.number().min(0).max(168).default(24),
  /** Which deployment this is; error reports are sent from `production` only (spec 9). */
  DEPLOY_ENV: z.enum(['development', 'staging', 'production']).default('development'),
  /** Optional: an https endpoint the browser posts sampled error reports to. */
  ERROR_REPORT_URL: z
    .url()
    .refine((u) => u.startsWith('https://'), 'must be an https:// URL')
    .optional(),
  /** Optional: the third-party tagging script loaded after registration (spec 4). */
  TAGGING_SCRIPT_URL: z
    .url()
    .refine((u) => u.startsWith('https://'), 'must be an https:// URL')
    .optional(),
  /**
   * Single sign-on (docs/decisions/007-single-sign-on.md). The provider's issuer URL; unset, a
   * development provider is mounted at `/oidc` (unless SSO_DEV_PROVIDER is false).
   */
  SSO_ISSUER: z
    .url()
    .refine(
      (u) => u.startsWith('https://') || /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?(\/|$)/.test(u),
      'must be an https:// URL (plain http only for localhost)',
    )
    .optional(),
  /** With no SSO_ISSUER: mount the development provider (true) or turn single sign-on off. */
  SSO_DEV_PROVIDER: bool.default(true),
  /** The website's client: id, secret (confidential client) and callback (`/login/callback`). */
  SSO_CLIENT_ID: z.string().min(1).max(200).optional(),
  SSO_CLIENT_SECRET: z.string().min(1).optional(),
  SSO_REDIRECT_URI: z.url().optional(),
  /** The women's app client (`/login-app/callback`); unset id with a real provider: no app sign-in. */
  SSO_WBBL_APP_CLIENT_ID: z.string().min(1).max(200).optional(),
  SSO_WBBL_APP_CLIENT_SECRET: z.string().min(1).optional(),
  SSO_WBBL_APP_REDIRECT_URI: z.url().optional(),
  /** The men's app client (`/login-bigbash-app/callback`). */
  SSO_BBL_APP_CLIENT_ID: z.string().min(1).max(200).optional(),
  SSO_BBL_APP_CLIENT_SECRET: z.string().min(1).optional(),
  SSO_BBL_APP_REDIRECT_URI: z.url().optional(),
  /** The provider's profile page; the app links to it with `?returnUrl=`. */
  SSO_PROFILE_URL: z.url().optional(),
  /**
   * Load shedding (@fastify/under-pressure): past any of these the server answers 503 with
   * Retry-After instead of queueing work it cannot finish. 0 turns a threshold off.
   */
  PRESSURE_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().min(0).default(1000),
  PRESSURE_MAX_EVENT_LOOP_UTILIZATION: z.coerce.number().min(0).max(1).default(0),
  PRESSURE_MAX_HEAP_USED_BYTES: z.coerce.number().int().min(0).default(0),
  PRESSURE_MAX_RSS_BYTES: z.coerce.number().int().min(0).default(0),
  /**
   * Requests queued for a PostgreSQL connection past which new ones are refused (a server bound by
   * its database never lags its event loop: the queue is where overload shows).
   */
  PRESSURE_MAX_DB_WAITING: z.coerce.number().int().min(0).default(500),
  /** How often the pressure figures are sampled, and the Retry-After sent with a shed request. */
  PRESSURE_SAMPLE_INTERVAL_MS: z.coerce.number().int().min(10).default(1000),
  PRESSURE_RETRY_AFTER_SECONDS: z.coerce.number().int().min(1).default(5),
  /** PostgreSQL connections per process, and how long a request waits for one before a 503. */
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(20),
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(5000),
  /**
   * How long expensive shared reads may be served from memory (pick percentages, tipper counts,
   * round maxima, the current competition); 0 reads the database every time.
   */
  READ_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  /**
   * How long a round's pick percentages are served from memory (and answered stale for as long
   * again while they reload): counting a round's tips takes seconds at a million tippers.
   */
  PICK_COUNTS_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
  /**
   * The push channel's pick split: each round still taking tips is counted at most this often
   * (by whichever scheduler claims it) and a `picks` event goes out when its percentages moved;
   * a round with a match just locked is told at once (decision 015).
   */
  PICK_SPLIT_EVENT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /**
   * How long a page of the overall or round rankings is served from memory (and answered stale for
   * as long again while it reloads). A re-score replaces every page at once; a tipper's new name or
   * deactivation shows within twice this time.
   */
  PAGE_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
  /**
   * How long a resolved session is kept in memory. Revocations and user changes reach every API
   * process at once (the database announces them); this bounds only what a process that lost its
   * listening connection without noticing could serve (docs/SECURITY.md). 0 turns it off.
   */
  SESSION_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(60_000),
  /** Open push-channel pages (GET /api/{sport}/events) one API process holds; past it: 503. */
  SSE_MAX_CONNECTIONS: z.coerce.number().int().min(0).default(100_000),
  /** The push channel's heartbeat: one comment to every page this often, so proxies keep it. */
  SSE_HEARTBEAT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
  /**
   * Test-only: also encode every response through the contract's zod schema and fail when the
   * compiled serializer wrote anything different (http/serializer.ts). Doubles serialisation work.
   */
  SERIALIZER_VERIFY: bool.default(false),
  /**
   * The key of tip receipts' HMAC (decision 027): whoever holds it can forge a receipt, so in
   * production it must be set and strong (productionProblems). Unset elsewhere, a fixed
   * development key signs, so the demo's receipts verify across restarts.
   */
  RECEIPT_SECRET: z.string().min(1).optional(),
  /** Receipt checks (the public verification route) a minute per address. */
  RECEIPT_CHECKS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(30),
  /** Test-only: fix the server clock at this instant (ISO 8601). */
  CLOCK_NOW: z.iso.datetime().optional(),
  /** Test-only: expose POST /api/test/clock to move the clock. Never in production. */
  ENABLE_TEST_ROUTES: bool.default(false),
})

/** The schema with its cross-setting rules and the defaults that depend on another setting. */
const configSchema = envSchema
  .superRefine((c, ctx) => {
    if (c.MAIL_OUTBOX_ONLY && c.SMTP_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['MAIL_OUTBOX_ONLY'],
        message: 'true with SMTP_URL set: choose one (outbox only, or sending through SMTP_URL)',
      })
    }
  })
  .transform((c) => ({ ...c, SEED: c.SEED ?? (c.DEPLOY_ENV === 'production' ? 'none' : 'demo') }))

export type Config = z.infer<typeof configSchema>

/** Where links in emails and redirects point: the configured origin, or this server locally. */
export const appOriginOf = (config: Pick<Config, 'APP_ORIGIN' | 'PORT'>): string =>
  config.APP_ORIGIN ?? `http://localhost:${config.PORT}`

/**
 * The origins state-changing requests may come from: APP_ORIGIN, or with it unset (development,
 * staging; production requires it) this server on localhost, by either name. Never the request's
 * own Host header, which the caller writes.
 */
export const allowedOriginsOf = (config: Pick<Config, 'APP_ORIGIN' | 'PORT'>): string[] =>
  config.APP_ORIGIN
    ? [config.APP_ORIGIN]
    : [`http://localhost:${config.PORT}`, `http://127.0.0.1:${config.PORT}`]

/**
 * TRUST_PROXY as Fastify's trustProxy. Fastify ignores a bare number (it cannot check the peer's
 * address), so a hop count is spelt as the function it means: the nearest `hops` peers are trusted
 * whatever their address, which is right only when the server is reachable through them alone.
 */
export const trustProxyOption = (
  value: Config['TRUST_PROXY'],
): boolean | string[] | ((address: string, hop: number) => boolean) =>
  typeof value === 'number' ? (_address, hop) => hop < value : value

/**
 * What a production deployment must not run with, each naming its setting (issue 26): the demo
 * season and the development provider publish working passwords; a session cookie without Secure
 * (and the __Host- prefix that comes with it) can leak over plain HTTP or be planted by a sibling
 * subdomain; links and the origin check need the public https origin; mail must either go out or
 * knowingly wait in the outbox. Empty outside production.
 */
/**
 * Why a production receipt key is unsafe, or null: at least 32 characters, not the development
 * key, and not one character repeated (a placeholder) — 16 distinct characters at least.
 */
export function receiptSecretProblem(secret: string | undefined): string | null {
  if (!secret)
    return 'required in production (the key that signs tip receipts; 32+ random characters)'
  if (secret === DEV_RECEIPT_SECRET) return 'must not be the development key in production'
  if (secret.length < 32 || new Set(secret).size < 16)
    return 'too weak: use at least 32 random characters (e.g. openssl rand -base64 48)'
  return null
}

/** Signs receipts outside production when RECEIPT_SECRET is unset (published: never secret). */
export const DEV_RECEIPT_SECRET = 'development-receipt-key-not-secret-do-not-use-in-production'

/**
 * The server's signing key: tip receipts, and the one-click unsubscribe links of list mail
 * (decision 043), each over its own kind of text. The development key when unset (refused in
 * production, above).
 */
export const signingSecretOf = (config: Pick<Config, 'RECEIPT_SECRET'>): string =>
  config.RECEIPT_SECRET ?? DEV_RECEIPT_SECRET

export function productionProblems(config: Config): string[] {
  if (config.DEPLOY_ENV !== 'production') return []
  const problems: string[] = []
  if (config.SEED !== 'none') problems.push('SEED: must be none in production (no demo season)')
  if (!config.SSO_ISSUER && config.SSO_DEV_PROVIDER) {
    problems.push(
      'SSO_DEV_PROVIDER: must be false in production unless SSO_ISSUER is set (the development identity provider signs anyone in with a published password)',
    )
  }
  if (!config.COOKIE_SECURE) {
    problems.push('COOKIE_SECURE: must be true in production (a Secure, __Host- session cookie)')
  }
  if (!config.APP_ORIGIN?.startsWith('https://')) {
    problems.push(
      `APP_ORIGIN: must be the public https:// origin in production (${config.APP_ORIGIN ? `not ${config.APP_ORIGIN}` : 'unset'})`,
    )
  }
  if (!config.SMTP_URL && !config.MAIL_OUTBOX_ONLY) {
    problems.push(
      'SMTP_URL: required in production, or MAIL_OUTBOX_ONLY=true to keep emails in the outbox knowingly',
    )
  }
  if (config.ENABLE_TEST_ROUTES) {
    problems.push('ENABLE_TEST_ROUTES: must be false in production (it lets anyone move the clock)')
  }
  if (config.CLOCK_NOW) problems.push('CLOCK_NOW: must be unset in production (a fixed clock)')
  const receiptProblem = receiptSecretProblem(config.RECEIPT_SECRET)
  if (receiptProblem) problems.push(`RECEIPT_SECRET: ${receiptProblem}`)
  return problems
}

/**
 * Refuses, in one error naming every offending setting, a production configuration that is unsafe
 * to serve or send mail with; the server and the worker check before they touch the database.
 */
export function assertSafeToServe(config: Config): Config {
  const problems = productionProblems(config)
  if (problems.length > 0) {
    throw new Error(
      `Invalid configuration for DEPLOY_ENV=production:\n${problems.map((p) => `  ${p}`).join('\n')}`,
    )
  }
  return config
}

/** loadConfig for a process that serves requests or sends mail (main.ts, the worker). */
export const loadServingConfig = (env: NodeJS.ProcessEnv = process.env): Config =>
  assertSafeToServe(loadConfig(env))

/** Parse the environment once; a bad value stops the process naming the variable (STYLE.md). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = configSchema.safeParse(env)
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`)
  }
  return result.data
}

export const testConfig = (overrides: Partial<Config> = {}): Config => ({
  ...loadConfig({}),
  SEED: 'none',
  LOG_LEVEL: 'silent',
  AUTH_RATE_LIMIT_PER_MINUTE: 10_000,
  PASSWORD_RESET_REQUESTS_PER_HOUR: 10_000,
  AUTH_LOGIN_FAILURES_BEFORE_BACKOFF: 10_000,
  REGISTRATION_EMAIL_TAKEN_PER_HOUR: 10_000,
  REGISTRATION_EMAIL_TAKEN_GLOBAL_PER_HOUR: 10_000,
  // Tests register users many at once; the hashing bound has its own test.
  PASSWORD_HASH_QUEUE: 10_000,
  // A slow test machine must not shed the integration suite's own requests.
  PRESSURE_MAX_EVENT_LOOP_DELAY_MS: 0,
  PRESSURE_MAX_DB_WAITING: 0,
  READ_CACHE_MS: 0,
  PAGE_CACHE_MS: 0,
  PICK_COUNTS_CACHE_MS: 0,
  SERIALIZER_VERIFY: true,
  ...overrides,
})
