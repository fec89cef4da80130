import { useState } from 'react'
import { useLocation } from 'react-router'
import type { SsoConfig } from '@tipping/contract/sso'
import { Button } from '../../ui/button.tsx'
import { useSsoConfigQuery } from './sso-api.ts'
import { clientForPath, startSignIn } from './sso-flow.ts'
import styles from './sso.module.css'

/** The public settings, or null while loading or when single sign-on is off or unreachable. */
export function useSsoConfig(): SsoConfig | null {
  return useSsoConfigQuery().data ?? null
}

/**
 * "Sign in with Big Bash Account": starts the authorization code flow with PKCE (spec 7). On the
 * app entry pages (`/login-app`, `/login-bigbash-app`) it signs in as that app's client.
 */
export function SsoButton({
  block = false,
  divider = false,
}: {
  block?: boolean
  divider?: boolean
}) {
  const { pathname } = useLocation()
  const client = clientForPath(pathname)
  const config = useSsoConfig()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  if (!config?.enabled || !config.clients[client]) return null

  const start = () => {
    setBusy(true)
    setError(null)
    startSignIn(config, client).catch((err: unknown) => {
      setBusy(false)
      setError(err instanceof Error ? err.message : 'Could not start sign-in')
    })
  }
  return (
    <>
      {divider ? <p className={styles.divider}>or</p> : null}
      <Button
        variant="secondary"
        block={block}
        data-testid="sso-start"
        disabled={busy}
        onClick={start}
      >
        {busy ? 'Opening Big Bash Account…' : 'Sign in with Big Bash Account'}
      </Button>
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </>
  )
}
