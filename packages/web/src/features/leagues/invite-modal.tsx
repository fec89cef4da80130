import { useEffect, useRef, useState } from 'react'
import { COPIED_MS, type Sport } from '@tipping/contract/constants'
import type { League } from '@tipping/contract/leagues'
import { Button } from '../../ui/button.tsx'
import { Modal } from '../../ui/modal.tsx'
import { InviteByEmail } from './invite-by-email.tsx'
import styles from './leagues.module.css'

/** The join link a friend opens (spec 7 "Join link", under the sport so it routes). */
export const joinLink = (sport: Sport, code: string): string =>
  `${window.location.origin}/${sport}/leagues/join/${code}`

/** Spec 2: invite modal with a copy-link button (`Copied!` for 3 s, a prompt where the clipboard is
 * unavailable) and share buttons. */
export function InviteModal({
  sport,
  league,
  open,
  onClose,
}: {
  sport: Sport
  league: League
  open: boolean
  onClose: () => void
}) {
  const [copied, setCopied] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current)
    },
    [],
  )
  if (!league.code) return null
  const link = joinLink(sport, league.code)
  const text = `Join my ${sport.toUpperCase()} tipping league "${league.name}" with code ${league.code}:`

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link)
    } catch {
      window.prompt('Copy this link to invite your friends', link)
      return
    }
    setCopied(true)
    if (timer.current) clearTimeout(timer.current)
    timer.current = setTimeout(() => setCopied(false), COPIED_MS)
  }
  const canShare = typeof navigator.share === 'function'

  return (
    <Modal open={open} title="Invite your friends" onClose={onClose}>
      <p>
        Send this link, or the code <strong data-testid="league-code">{league.code}</strong>, to
        anyone you want in <strong>{league.name}</strong>.
      </p>
      <div className={styles.linkBox}>
        <input readOnly value={link} aria-label="Invite link" onFocus={(e) => e.target.select()} />
        <Button onClick={() => void copy()} aria-live="polite">
          {copied ? 'Copied!' : 'Copy link'}
        </Button>
      </div>
      <div className={styles.shareRow}>
        {canShare ? (
          <Button
            variant="secondary"
            onClick={() =>
              void navigator.share({ title: league.name, text, url: link }).catch(() => undefined)
            }
          >
            Share…
          </Button>
        ) : null}
        <a
          className={styles.shareLink}
          href={`mailto:?subject=${encodeURIComponent(`Join ${league.name}`)}&body=${encodeURIComponent(`${text}\n${link}`)}`}
        >
          Email
        </a>
        <a
          className={styles.shareLink}
          href={`https://wa.me/?text=${encodeURIComponent(`${text} ${link}`)}`}
          target="_blank"
          rel="noopener noreferrer"
        >
          WhatsApp
        </a>
        <a
          className={styles.shareLink}
          href={`https://twitter.com/intent/tweet?text=${encodeURIComponent(text)}&url=${encodeURIComponent(link)}`}
          target="_blank"
          rel="noopener noreferrer"
        >
          X
        </a>
      </div>
      {league.isCommissioner ? (
        <div className={styles.danger}>
          <InviteByEmail sport={sport} league={league} />
        </div>
      ) : null}
    </Modal>
  )
}
