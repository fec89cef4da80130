import { useState } from 'react'
import { Link } from 'react-router'
import { CLEAN_SWEEP_BONUS } from '@tipping/contract/constants'
import type { Snapshot } from '@tipping/contract/scores'
import { Button } from '../../ui/button.tsx'
import { formatCount } from '../../lib/numbers.ts'
import { useSport } from '../../lib/sport.ts'
import { Modal } from '../../ui/modal.tsx'
import styles from './score-header.module.css'

interface Props {
  snapshot: Snapshot | null
  onShare: () => void
}

/** Spec 1: round score, total score and overall rank, with share and information buttons. */
export function ScoreHeader({ snapshot, onShare }: Props) {
  const [info, setInfo] = useState(false)
  const sport = useSport()
  const show = (n: number | undefined) => (snapshot ? String(n ?? 0) : '–')
  return (
    <section className={styles.header} aria-label="Your score" data-testid="score-header">
      <div className={styles.stat}>
        <span className={styles.value} data-testid="round-points">
          {show(snapshot?.round_points)}
        </span>
        <span className={styles.label}>Week pts</span>
      </div>
      <div className={styles.stat}>
        <span className={styles.value} data-testid="total-points">
          {show(snapshot?.overall_points)}
        </span>
        <span className={styles.label}>Total pts</span>
      </div>
      {/* The rank leads to My season, where it is drawn round by round (issue 31). */}
      <Link
        to={`/${sport}/season`}
        className={`${styles.stat} ${styles.statLink}`}
        data-testid="my-season-link"
      >
        <span className={styles.value} data-testid="overall-rank">
          {snapshot && snapshot.overall_rank > 0 ? formatCount(snapshot.overall_rank) : '–'}
        </span>
        <span className={styles.label}>
          Rank <span className={styles.more}>My season ›</span>
        </span>
      </Link>
      <div className={styles.buttons}>
        <button
          type="button"
          className={styles.icon}
          aria-label="Share your score"
          onClick={onShare}
        >
          ⤴
        </button>
        <button
          type="button"
          className={styles.icon}
          aria-label="How the Clean Sweep Bonus works"
          onClick={() => setInfo(true)}
        >
          i
        </button>
      </div>
      <Modal open={info} title="Clean Sweep Bonus" onClose={() => setInfo(false)}>
        <ul className={styles.rules}>
          <li>Tip every match of the week correctly and earn {CLEAN_SWEEP_BONUS} bonus points.</li>
          <li>Matches with no result are left out.</li>
          <li>A missed tip that became an away-team auto-tip means no bonus, even if it won.</li>
          <li>
            The bonus is added when the week&apos;s last match finishes, and is not doubled in the
            Golden Week.
          </li>
        </ul>
        <Button block onClick={() => setInfo(false)}>
          Got it
        </Button>
      </Modal>
    </section>
  )
}
