import { Link } from 'react-router'
import styles from './legal.module.css'
import { usePageTitle } from '../../lib/page-title.ts'

/** `/privacy-policy`: what the game keeps about you, why, and what you can do about it. */
export default function PrivacyPage() {
  usePageTitle('Privacy Policy')
  return (
    <article className={styles.page}>
      <h1>Privacy Policy</h1>
      <p className={styles.updated}>Last updated 1 November 2025.</p>
      <p>
        This policy explains what personal information Big Bash Tipping collects, why, and the
        choices you have. We collect only what the game needs and we do not sell it.
      </p>

      <h2>What we collect</h2>
      <ul>
        <li>
          Account details you give us: email address, first and last name, team name, the team you
          support, and a password (stored only as a one-way hash, never in readable form).
        </li>
        <li>
          What you do in the game: your tips, Super Sixes numbers, scores, and the leagues you
          create or join.
        </li>
        <li>
          Messages you send us through the contact form, and your email address if you register
          interest for next season.
        </li>
        <li>
          Basic technical records such as sign-in times, kept to keep the service secure and to
          investigate abuse.
        </li>
      </ul>

      <h2>How we use it</h2>
      <p>
        To run the game: keep your account, score your tips, show rankings and league ladders, send
        the emails the game needs (such as password resets, league invitations and tipping
        reminders), answer your messages, and award prizes. Your team name and scores are visible to
        other players in rankings and in the leagues you join. Other players can see your tips only
        once a match has finished.
      </p>

      <h2>Cookies and local storage</h2>
      <p>
        We use one cookie to keep you signed in. Your browser&apos;s local storage remembers small
        settings, such as the competition you last chose and whether you dismissed a notice. We do
        not use advertising trackers.
      </p>

      <h2>Sharing</h2>
      <p>
        We do not sell or rent your information. It is shared only with the services that host the
        game and deliver its email, and when the law requires it.
      </p>

      <h2>Keeping and deleting</h2>
      <p>
        You can update your details or deactivate your account from the Account page at any time.
        After that we keep only what we must for legal or security reasons, and you can ask us to
        delete the rest.
      </p>

      <h2>Your rights and contact</h2>
      <p>
        You can ask to see or correct the information we hold about you, or complain about how we
        handled it, through the <Link to="/bbl/help/contact">contact form</Link>. See also the{' '}
        <Link to="/terms">Terms &amp; Conditions</Link>.
      </p>
    </article>
  )
}
