import type { UserResponse } from '@tipping/contract/auth'
import type { Sport } from '@tipping/contract/constants'
import type { SsoConfig, SsoLoginBody } from '@tipping/contract/sso'
import { api } from '../../lib/api-client.ts'

let config: Promise<SsoConfig> | null = null

/** The public single sign-on settings, fetched once per page load (a failure is retried). */
export function fetchSsoConfig(): Promise<SsoConfig> {
  config ??= api<SsoConfig>('auth/sso-config').catch((err: unknown) => {
    config = null
    throw err
  })
  return config
}

/** Spec 7: `POST {sport}/auth/login` with code, verifier, nonce, mobile_app and big_bash_app. */
export const ssoLogin = (sport: Sport, body: SsoLoginBody) =>
  api<UserResponse>(`${sport}/auth/login`, { method: 'POST', body, skipUnauthorized: true })
