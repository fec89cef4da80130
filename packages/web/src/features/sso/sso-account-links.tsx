import { useEffect, useState } from 'react'
import { fetchSsoConfig } from './sso-api.ts'
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
  go: (url: string) => void = (url) => window.location.assign(url),
): Promise<boolean> {
  const client = ssoSignInClient()
  if (!client) return false
  forgetSsoSignIn()
  const config = await fetchSsoConfig().catch(() => null)
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
  const [href, setHref] = useState<string | null>(null)
  useEffect(() => {
    if (!ssoSignInClient()) return
    let live = true
    fetchSsoConfig()
      .then((config) => live && setHref(externalProfileUrl(config, window.location.href)))
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [])
  if (!href) return null
  return (
    <li>
      <a className={linkClassName} href={href} rel="noopener">
        Big Bash Account ↗
      </a>
    </li>
  )
}
