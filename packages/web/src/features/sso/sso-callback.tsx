import { useEffect, useRef, useState } from 'react'
import { Link, useLocation, useNavigate } from 'react-router'
import type { UserSession } from '@tipping/contract/auth'
import type { Sport } from '@tipping/contract/constants'
import { ssoAppFlags, type SsoClientName } from '@tipping/contract/sso-clients'
import { isApiFailure } from '../../lib/api.ts'
import { Button } from '../../ui/button.tsx'
import { Panel } from '../../ui/panel.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { useLazySsoConfigQuery, useSsoLoginMutation } from './sso-api.ts'
import {
  checkCallback,
  clearStoredRequest,
  markSignedIn,
  readStoredRequest,
  startSignIn,
} from './sso-flow.ts'
import styles from './sso.module.css'

interface Props {
  client: SsoClientName
  sport: Sport
  /** A sign-in request is under way (spec 4: userLoginStatus loading). */
  onStarted: () => void
  onSignedIn: (user: UserSession) => void
  onFailed: (error: { code: string | number; param: string | null; message: string }) => void
}

/**
 * The callback page (spec 4 "Sign-in callback"): reads `code` and `state`, goes on only when the
 * state is the stored one (then forgets the stored state, verifier and nonce), and posts code,
 * verifier, nonce and the app flags to `POST /api/{sport}/auth/login`.
 */
export function SsoCallback({ client, sport, onStarted, onSignedIn, onFailed }: Props) {
  const { pathname, search } = useLocation()
  const navigate = useNavigate()
  const [error, setError] = useState<string | null>(null)
  const [readConfig] = useLazySsoConfigQuery()
  const [ssoLogin] = useSsoLoginMutation()
  const ran = useRef(false)
  const handlers = useRef({ onStarted, onSignedIn, onFailed })
  handlers.current = { onStarted, onSignedIn, onFailed }

  useEffect(() => {
    // Once: a code can be exchanged only once (and StrictMode runs effects twice).
    if (ran.current) return
    ran.current = true
    const params = new URLSearchParams(search)
    const fail = (code: string | number, param: string | null, message: string) => {
      setError(message)
      handlers.current.onFailed({ code, param, message })
    }
    void (async () => {
      // The settings, from the cache when another part of the page has read them already.
      const config = await readConfig(undefined, true)
        .unwrap()
        .catch(() => null)
      const result = checkCallback(params, readStoredRequest(), config?.issuer ?? null)
      if (!result.ok) {
        if (result.settled) clearStoredRequest()
        // Leave no code in the address bar or the history.
        void navigate(pathname, { replace: true })
        fail('SSO_CALLBACK', 'state', result.reason)
        return
      }
      clearStoredRequest()
      handlers.current.onStarted()
      try {
        const { user } = await ssoLogin({
          sport,
          body: {
            code: result.code,
            verifier: result.verifier,
            nonce: result.nonce,
            ...ssoAppFlags(client),
          },
        }).unwrap()
        markSignedIn(client)
        handlers.current.onSignedIn(user)
      } catch (err) {
        void navigate(pathname, { replace: true })
        if (isApiFailure(err)) fail(err.code, err.param, err.message)
        else fail(0, null, 'Sign-in could not be completed')
      }
    })()
  }, [client, sport, pathname, search, navigate, readConfig, ssoLogin])

  if (!error) return <Spinner label="Signing you in" />

  const retry = () => {
    void readConfig(undefined, true)
      .unwrap()
      .then((config) => startSignIn(config, client))
      .catch(() => setError('Single sign-on is not available right now'))
  }
  return (
    <Panel title="Sign-in not completed">
      <p className={styles.error} role="alert" data-testid="sso-error">
        {error}
      </p>
      <div className={styles.actions}>
        <Button onClick={retry}>Try again</Button>
        <Link to="/">Back to the home page</Link>
      </div>
    </Panel>
  )
}
