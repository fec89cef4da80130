import type { Clock } from '../../clock.ts'
import type { Config } from '../../config.ts'
import type { Database } from '../../db/schema.ts'
import type { SessionGate } from '../../http/session.ts'
import type { App } from '../../http/types.ts'
import { DEV_SSO_ACCOUNTS, type DevAccount } from '../../idp/accounts.ts'
import { injectFetch } from '../../idp/inject-fetch.ts'
import type { AuthService } from '../auth/service.ts'
import { ssoRoutes } from './routes.ts'
import { SsoService } from './service.ts'
import { resolveSsoSettings, type SsoClientSettings } from './settings.ts'

/**
 * Single sign-on for the app: the routes, and with no provider configured the development
 * provider mounted on this same server (docs/decisions/007-single-sign-on.md).
 */
export async function registerSso(
  app: App,
  deps: {
    config: Config
    db: Database
    clock: Clock
    auth: AuthService
    gate: SessionGate
    /** The development provider's accounts; absent, the seeded ones (tests bring their own). */
    devAccounts?: readonly DevAccount[]
  },
): Promise<void> {
  const { config, db, clock, auth, gate } = deps
  const accounts = deps.devAccounts ?? DEV_SSO_ACCOUNTS
  const perMinute = config.AUTH_RATE_LIMIT_PER_MINUTE
  const settings = resolveSsoSettings(config)
  let sso: SsoService | null = null
  if (settings) {
    if (settings.devProvider) {
      // Loaded only here: oidc-provider and its Koa stack are about 6 MB of heap and 20 MB of
      // RSS that a deployment with a real provider (or none) would carry for nothing, out of the
      // API's 350 MB budget (bench/README.md, 2026-12-07). eslint.config.js keeps it lazy.
      const { createDevProvider, devProviderRoutes } = await import('../../idp/provider.ts')
      const clients = Object.values(settings.clients).filter((c): c is SsoClientSettings => !!c)
      const provider = createDevProvider({
        issuer: settings.issuer,
        clients,
        postLogoutRedirectUri: settings.postLogoutRedirectUri,
        accounts,
        log: app.log,
      })
      // The clients' callbacks and the page after logout: where the provider's forms may post.
      const formOrigins = [...clients.map((c) => c.redirectUri), settings.postLogoutRedirectUri]
        .map((u) => URL.parse(u)?.origin)
        .filter((o): o is string => !!o)
      await devProviderRoutes(app, { provider, accounts, perMinute, formOrigins })
    }
    sso = new SsoService({
      db,
      clock,
      settings,
      log: app.log,
      ...(settings.devProvider ? { fetch: injectFetch(app) } : {}),
    })
  }
  ssoRoutes(app, { sso, auth, gate, perMinute })
}

/** True when the server mounts the development provider (main.ts prints its accounts). */
export const usesDevProvider = (config: Config): boolean =>
  !config.SSO_ISSUER && config.SSO_DEV_PROVIDER
