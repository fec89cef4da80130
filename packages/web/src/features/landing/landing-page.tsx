import { useEffect, type ReactNode } from 'react'
import { Link, useLocation, useNavigate } from 'react-router'
import { TOP_PRIZE, SEASON_PROMOTION, type Sport } from '@tipping/contract/constants'
import { signUpBannerText } from '@tipping/contract/site-rules'
import { useSiteContent } from '../../lib/site-content.tsx'
import { isSport } from '../../lib/sport.ts'
import { Button } from '../../ui/button.tsx'
import { HeroArt } from './hero-art.tsx'
import styles from './landing-page.module.css'
import { PreregistrationCard } from './preregistration-card.tsx'
import { usePreregister } from './site-api.ts'
import site from './site.module.css'

interface Props {
  sport: Sport
  isAuthorized: boolean
  onSportChange: (sport: Sport) => void
  /** Opens a sign-in modal; the app owns which one is open. */
  onOpen: (modal: 'login' | 'registration' | 'forgot-password') => void
  /** Other ways to sign in, composed by the app (the single sign-on button). */
  signInWith?: ReactNode
  /** Spec 6 login-enabled flag (app-config.json): false hides sign-in and registration. */
  loginEnabled?: boolean
}

const MODE_BY_PATH: Record<string, 'login' | 'registration' | 'forgot-password'> = {
  '/login': 'login',
  '/registration': 'registration',
  '/forgot-password': 'forgot-password',
}

/** Spec 2: `/login-app` and `/login-bigbash-app` are the apps' sign-in entry pages. */
const APP_BY_PATH: Record<string, string> = {
  '/login-app': "the Women's Big Bash League app",
  '/login-bigbash-app': 'the Big Bash League app',
}

/**
 * The landing page in its modes: `/login`, `/registration` and `/forgot-password` open their
 * modal, `/bbl` and `/wbbl` choose the competition, `/login-app` and `/login-bigbash-app` are the
 * apps' single sign-on entry pages.
 */
export function LandingPage({
  sport,
  isAuthorized,
  onSportChange,
  onOpen,
  signInWith,
  loginEnabled = true,
}: Props) {
  const { pathname } = useLocation()
  const navigate = useNavigate()
  // The brand and store links of app-config.json, read with the site content before first paint.
  const { config } = useSiteContent()
  const preregister = usePreregister()
  const app = APP_BY_PATH[pathname]
  useEffect(() => {
    const mode = MODE_BY_PATH[pathname]
    if (mode && !isAuthorized && loginEnabled) onOpen(mode)
    const chosen = pathname.slice(1)
    if (isSport(chosen)) onSportChange(chosen)
  }, [pathname, isAuthorized, loginEnabled, onOpen, onSportChange])

  const competition = sport === 'bbl' ? "the men's Big Bash League" : "the Women's Big Bash League"
  return (
    <>
      <section className={styles.hero}>
        <div className={styles.inner}>
          <div className={styles.copy}>
            <p className={styles.kicker}>Free to play · {SEASON_PROMOTION} season</p>
            <h1 className={styles.title}>Tip every match. Beat your mates.</h1>
            <p className={site.banner} data-testid="signup-banner">
              {signUpBannerText(config.brand)}
            </p>
            {app ? (
              <p className={site.appNote} data-testid="app-entry">
                Signing in for {app}: use your Big Bash Account to continue.
              </p>
            ) : null}
            <p className={styles.lead}>
              Pick the winner of every game of {competition}, call the sixes in each week&apos;s
              Super Sixes match, and climb your league ladders. Top prize {TOP_PRIZE}.
            </p>
            <div className={styles.sports} role="group" aria-label="Competition">
              {(['bbl', 'wbbl'] as const).map((s) => (
                <button
                  key={s}
                  type="button"
                  className={`${styles.sport} ${s === sport ? styles.sportActive : ''}`}
                  aria-pressed={s === sport}
                  onClick={() => onSportChange(s)}
                >
                  {s === 'bbl' ? 'BBL' : 'WBBL'}
                </button>
              ))}
            </div>
            <div className={styles.actions}>
              {isAuthorized ? (
                <Button onClick={() => void navigate(`/${sport}/tipping`)}>Go to my tips</Button>
              ) : !loginEnabled ? (
                <p className={styles.lead} data-testid="login-disabled">
                  Signing in and signing up are paused for the moment. Please come back soon.
                </p>
              ) : (
                <>
                  <Button data-testid="register-open" onClick={() => onOpen('registration')}>
                    Sign up free
                  </Button>
                  <Button
                    variant="secondary"
                    data-testid="login-open"
                    onClick={() => onOpen('login')}
                  >
                    Log in
                  </Button>
                  {signInWith}
                </>
              )}
            </div>
          </div>
          <HeroArt className={styles.art} />
        </div>
      </section>
      <section className={styles.features} aria-label="How it works">
        <div className={styles.feature}>
          <h2>Tip the winners</h2>
          <p>
            One pick per match, every week. A correct tip is a point; the Golden Week counts double.
          </p>
        </div>
        <div className={styles.feature}>
          <h2>Super Sixes</h2>
          <p>
            Guess how many sixes fly in the week&apos;s feature match. The closest call breaks ties.
          </p>
        </div>
        <div className={styles.feature}>
          <h2>Clean Sweep</h2>
          <p>Get every match of the week right with your own tips for 2 bonus points.</p>
        </div>
      </section>
      <div className={site.section}>
        {/* A signed-in player has the account pre-registering asks for, and this season open. */}
        {isAuthorized ? null : (
          <PreregistrationCard
            appStoreUrl={config.appStoreUrl}
            playStoreUrl={config.playStoreUrl}
            submit={preregister}
          />
        )}
        <p className={site.contactLink}>
          Questions? <Link to={`/${sport}/help/contact`}>Contact us</Link>.
        </p>
      </div>
    </>
  )
}
