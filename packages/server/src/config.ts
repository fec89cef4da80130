import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'

/** Repository root, so paths work whichever directory a command is run from. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  /** Public origin of the app; state-changing requests must come from it. */
  APP_ORIGIN: z.url().optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  PGLITE_DIR: z.string().default(path.join(REPO_ROOT, 'data/db')),
  STATIC_DIR: z.string().default(path.join(REPO_ROOT, 'data/static')),
  WEB_DIST_DIR: z.string().default(path.join(REPO_ROOT, 'packages/web/dist')),
  DATA_DIR: z.string().default(path.join(REPO_ROOT, 'data')),
  /** `demo` seeds a playable season on an empty database; `none` starts clean. */
  SEED: z.enum(['demo', 'none']).default('demo'),
  DEMO_USERS: z.coerce.number().int().min(0).max(100_000).default(300),
  SPONSOR_PREFIX: z
    .string()
    .regex(/^[a-z0-9]+$/)
    .default('xyz'),
  /** Cookies get `Secure` unless this is false (plain-HTTP development on localhost). */
  COOKIE_SECURE: bool.default(false),
  SESSION_IDLE_DAYS: z.coerce.number().positive().default(30),
  SESSION_MAX_DAYS: z.coerce.number().positive().default(90),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
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
  /** Password reset emails one account may be sent an hour (the rest are refused with 429). */
  PASSWORD_RESET_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).default(5),
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
  /** Anti-spam quotas per user per hour: addresses invited to leagues, league messages sent. */
  LEAGUE_INVITES_PER_HOUR: z.coerce.number().int().min(1).default(100),
  LEAGUE_MESSAGES_PER_HOUR: z.coerce.number().int().min(1).default(5),
  /** Recipients of one user's league messages per hour (a message goes to every member). */
  LEAGUE_MESSAGE_RECIPIENTS_PER_HOUR: z.coerce.number().int().min(1).default(5000),
  /** Where contact-form messages are emailed. */
  SUPPORT_EMAIL: z.email().default('support@tipping.example'),
  /** Contact messages and pre-registrations allowed per hour from one address. */
  CONTACT_PER_HOUR: z.coerce.number().int().min(1).default(5),
  PREREGISTRATIONS_PER_HOUR: z.coerce.number().int().min(1).default(10),
  /**
   * Request header carrying the caller's ISO country code, set by the proxy or CDN in front
   * (e.g. `cf-ipcountry`). Unset: the country is unknown (null).
   */
  GEO_COUNTRY_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, 'must be a header name')
    .transform((v) => v.toLowerCase())
    .optional(),
  /** Spec 2: the provider's name in 'Sign up for {brand} Big Bash Tipping'. */
  BRAND_NAME: z.string().trim().min(1).max(40).default('Free'),
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
  /**
   * Test-only: also encode every response through the contract's zod schema and fail when the
   * compiled serializer wrote anything different (http/serializer.ts). Doubles serialisation work.
   */
  SERIALIZER_VERIFY: bool.default(false),
  /** Test-only: fix the server clock at this instant (ISO 8601). */
  CLOCK_NOW: z.iso.datetime().optional(),
  /** Test-only: expose POST /api/test/clock to move the clock. Never in production. */
  ENABLE_TEST_ROUTES: bool.default(false),
})

export type Config = z.infer<typeof envSchema>

/** Where links in emails and redirects point: the configured origin, or this server locally. */
export const appOriginOf = (config: Pick<Config, 'APP_ORIGIN' | 'PORT'>): string =>
  config.APP_ORIGIN ?? `http://localhost:${config.PORT}`

/** Parse the environment once; a bad value stops the process naming the variable (STYLE.md). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = envSchema.safeParse(env)
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
  // A slow test machine must not shed the integration suite's own requests.
  PRESSURE_MAX_EVENT_LOOP_DELAY_MS: 0,
  PRESSURE_MAX_DB_WAITING: 0,
  READ_CACHE_MS: 0,
  PAGE_CACHE_MS: 0,
  PICK_COUNTS_CACHE_MS: 0,
  SERIALIZER_VERIFY: true,
  ...overrides,
})
