import { Link } from 'react-router'
import { TOP_PRIZE } from '@tipping/contract/constants'
import styles from './legal.module.css'
import { usePageTitle } from '../../lib/page-title.ts'

/** `/terms`: plain terms for a free game (reachable in offseason mode too). */
export default function TermsPage() {
  usePageTitle('Terms & Conditions')
  return (
    <article className={styles.page}>
      <h1>Terms &amp; Conditions</h1>
      <p className={styles.updated}>Last updated 1 November 2025.</p>
      <p>
        These terms apply to Big Bash Tipping, a free prediction game for the men&apos;s Big Bash
        League (BBL) and the Women&apos;s Big Bash League (WBBL). By creating an account or tipping
        you agree to them. If you do not agree, please do not use the game.
      </p>

      <h2>1. The game is free</h2>
      <p>
        Entry is free. Nothing is bought or staked, and no payment details are ever asked for. It is
        a game of skill for fun, not gambling.
      </p>

      <h2>2. Your account</h2>
      <p>
        You need to be 18 or older, or have a parent&apos;s or guardian&apos;s permission, to play.
        Use one account per person and keep your password to yourself; you are responsible for what
        happens under your account. Give a real email address, since we use it to confirm who you
        are and to reset your password.
      </p>

      <h2>3. Tipping and scoring</h2>
      <p>
        Each match locks at its scheduled start time, and tips cannot be changed after that. Scores
        follow the game rules on the help pages. Results are taken from official match results; if a
        result is corrected, scores are recalculated. Our records of when a tip was made are final.
      </p>

      <h2>4. Prizes</h2>
      <p>
        Prizes, including the top prize of {TOP_PRIZE}, are described on the prizes help page and
        are awarded only to eligible players who followed these terms. Winners may be asked to
        confirm their identity. A prize cannot be swapped for something else and may be withheld
        from an account that broke these terms.
      </p>

      <h2>5. Fair play and leagues</h2>
      <p>
        Do not use several accounts, automated tools or anything else that gives you an unfair edge
        or disrupts the game. Team names, league names and messages must not be offensive,
        misleading or advertising. We may change such names, remove a league or close an account
        that breaks these rules.
      </p>

      <h2>6. Availability and changes</h2>
      <p>
        We try to keep the game running but cannot promise it will always be available or free of
        errors. Between seasons the game is paused. We may change these terms; the date at the top
        shows the latest version, and continuing to play means you accept it.
      </p>

      <h2>7. Liability</h2>
      <p>
        As far as the law allows, we are not liable for losses that come from using, or being unable
        to use, the game. Nothing here limits rights you have under Australian consumer law.
      </p>

      <h2>8. Contact</h2>
      <p>
        Questions about these terms can be sent through the{' '}
        <Link to="/bbl/help/contact">contact form</Link>. How we handle personal information is
        explained in the <Link to="/privacy-policy">Privacy Policy</Link>.
      </p>
    </article>
  )
}
