import { randomBytes } from 'node:crypto'
import { SSO_CALLBACK_PATHS, SSO_CLIENTS, type SsoClientName } from '@tipping/contract/sso-clients'
import { appOriginOf, type Config } from '../../config.ts'

/** Where the development provider is mounted on this server. */
export const DEV_PROVIDER_PATH = '/oidc'

export interface SsoClientSettings {
  clientId: string
  /** Unset: a public client (PKCE alone); set: the token request authenticates with it. */
  clientSecret: string | null
  redirectUri: string
}

export interface SsoSettings {
  issuer: string
  /** True when this server mounts the development provider itself. */
  devProvider: boolean
  clients: Record<SsoClientName, SsoClientSettings | null>
  /** Where the provider sends the browser back after signing out there. */
  postLogoutRedirectUri: string
  profileUrl: string | null
}

const DEV_CLIENT_IDS: Record<SsoClientName, string> = {
  web: 'tipping-web',
  wbblApp: 'tipping-wbbl-app',
  bblApp: 'tipping-bbl-app',
}

/**
 * The effective single sign-on settings, or null when it is turned off. With no SSO_ISSUER the
 * development provider is the issuer and all three clients exist (a secret made up per process
 * unless one is configured); with a real provider each client exists only when its id is set.
 */
export function resolveSsoSettings(config: Config): SsoSettings | null {
  const origin = appOriginOf(config).replace(/\/$/, '')
  const devProvider = !config.SSO_ISSUER
  if (devProvider && !config.SSO_DEV_PROVIDER) return null
  const configured: Record<SsoClientName, { id?: string; secret?: string; redirectUri?: string }> =
    {
      web: {
        id: config.SSO_CLIENT_ID,
        secret: config.SSO_CLIENT_SECRET,
        redirectUri: config.SSO_REDIRECT_URI,
      },
      wbblApp: {
        id: config.SSO_WBBL_APP_CLIENT_ID,
        secret: config.SSO_WBBL_APP_CLIENT_SECRET,
        redirectUri: config.SSO_WBBL_APP_REDIRECT_URI,
      },
      bblApp: {
        id: config.SSO_BBL_APP_CLIENT_ID,
        secret: config.SSO_BBL_APP_CLIENT_SECRET,
        redirectUri: config.SSO_BBL_APP_REDIRECT_URI,
      },
    }
  if (!devProvider && !config.SSO_CLIENT_ID) {
    // Fails at start-up, naming the setting (STYLE.md: config fails fast).
    throw new Error('Invalid configuration:\n  SSO_CLIENT_ID: required when SSO_ISSUER is set')
  }
  const clients = Object.fromEntries(
    SSO_CLIENTS.map((name) => {
      const c = configured[name]
      const clientId = c.id ?? (devProvider ? DEV_CLIENT_IDS[name] : undefined)
      if (!clientId) return [name, null]
      return [
        name,
        {
          clientId,
          clientSecret: c.secret ?? (devProvider ? randomBytes(32).toString('base64url') : null),
          redirectUri: c.redirectUri ?? `${origin}${SSO_CALLBACK_PATHS[name]}`,
        },
      ]
    }),
  ) as Record<SsoClientName, SsoClientSettings | null>
  return {
    issuer: config.SSO_ISSUER ?? `${origin}${DEV_PROVIDER_PATH}`,
    devProvider,
    clients,
    postLogoutRedirectUri: `${origin}/`,
    profileUrl: config.SSO_PROFILE_URL ?? null,
  }
}
