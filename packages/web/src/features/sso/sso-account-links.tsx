import { skipToken } from '@reduxjs/toolkit/query/react'
import type { SsoConfig } from '@tipping/contract/sso'
import { useSsoConfigQuery } from './sso-api.ts'
import {
  externalLogoutUrl,
  externalProfileUrl,
  forgetSsoSignIn,
  ssoSignInClient,
} from './sso-flow.ts'

/**
 * After the app's own logout: when the user came in by single sign-on and the provider offers
 * RP-initiated logout, the browser goes there to end that session too, and comes back to `/`.
 * True when the browser is leaving.
 */
export async function leaveThroughProvider(
  readConfig: () => Promise<SsoConfig | null>,
  go: (url: string) => void = (url) => window.location.assign(url),
): Promise<boolean> {
  const client = ssoSignInClient()
  if (!client) return false
  forgetSsoSignIn()
  const config = await readConfig()
  const url = config ? externalLogoutUrl(config, client) : null
  if (!url) return false
  go(url)
  return true
}

/**
 * A menu item linking to the provider's profile page (with `returnUrl`), for single sign-on
 * users when a profile URL is configured; nothing otherwise.
 */
export function SsoProfileMenuItem({ linkClassName }: { linkClassName?: string }) {
  const { data: config } = useSsoConfigQuery(ssoSignInClient() ? undefined : skipToken)
  const href = config ? externalProfileUrl(config, window.location.href) : null
  if (!href) return null
  return (
    <li>
      <a className={linkClassName} href={href} rel="noopener">
        Big Bash Account ↗
      </a>
    </li>
  )
}
