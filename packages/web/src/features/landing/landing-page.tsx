import { useEffect, type ReactNode } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { TOP_PRIZE, SEASON_PROMOTION, type Sport } from '@tipping/contract/constants'
import { Button } from '../../ui/button.tsx'
import styles from './landing-page.module.css'

interface Props {
  sport: Sport
  isAuthorized: boolean
  onSportChange: (sport: Sport) => void
  /** Opens a sign-in modal; the app owns which one is open. */
  onOpen: (modal: 'login' | 'registration' | 'forgot-password') => void
  /** Other ways to sign in, composed by the app (the single sign-on button). */
  signInWith?: ReactNode
}

const MODE_BY_PATH: Record<string, 'login' | 'registration' | 'forgot-password'> = {
  '/login': 'login',
  '/registration': 'registration',
  '/forgot-password': 'forgot-password',
}

/** The landing page in its modes: `/login`, `/registration` and `/forgot-password` open their modal. */
export function LandingPage({ sport, isAuthorized, onSportChange, onOpen, signInWith }: Props) {
  const { pathname } = useLocation()
  const navigate = useNavigate()
  useEffect(() => {
    const mode = MODE_BY_PATH[pathname]
    if (mode && !isAuthorized) onOpen(mode)
    if (pathname === '/bbl' || pathname === '/wbbl') onSportChange(pathname.slice(1) as Sport)
  }, [pathname, isAuthorized, onOpen, onSportChange])

  const competition = sport === 'bbl' ? "the men's Big Bash League" : "the Women's Big Bash League"
  return (
    <>
      <section className={styles.hero}>
        <div className={styles.inner}>
          <p className={styles.kicker}>Free to play · {SEASON_PROMOTION} season</p>
          <h1 className={styles.title}>Tip every match. Beat your mates.</h1>
          <p className={styles.lead}>
            Pick the winner of every game of {competition}, call the sixes in each week&apos;s Super
            Sixes match, and climb your league ladders. Top prize {TOP_PRIZE}.
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
    </>
  )
}
