import { Button } from '../../ui/button.tsx'
import styles from './countdown-card.module.css'

interface Props {
  roundNumber: number
  /** The first lockout of the round, ISO. */
  startsAt: string
  isFirstRound: boolean
  now: Date
  onEnter: () => void
}

export function formatCountdown(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  const d = Math.floor(s / 86_400)
  const h = Math.floor((s % 86_400) / 3600)
  const m = Math.floor((s % 3600) / 60)
  const sec = s % 60
  return d > 0 ? `${d}d ${h}h ${m}m ${sec}s` : `${h}h ${m}m ${sec}s`
}

/** Spec 2: "Week N starts in ..." or "The season starts in ...", with Enter your tips. */
export function CountdownCard({ roundNumber, startsAt, isFirstRound, now, onEnter }: Props) {
  const left = formatCountdown(Date.parse(startsAt) - now.getTime())
  return (
    <section
      className={styles.card}
      aria-label={`Week ${roundNumber} countdown`}
      data-testid="countdown"
    >
      <div>
        <p className={styles.title}>Week {roundNumber}</p>
        <p className={styles.text} role="timer">
          {isFirstRound ? 'The season starts in ' : `Week ${roundNumber} starts in `}
          {left}
        </p>
      </div>
      <Button onClick={onEnter}>Enter your tips</Button>
    </section>
  )
}

/** The card's space, held while the fixture loads so the matches below do not jump (CLS). */
export function CountdownPlaceholder() {
  return (
    <div className={`${styles.card} ${styles.placeholder}`} aria-hidden="true">
      <div>
        <p className={styles.title}>Week 10</p>
        <p className={styles.text}>Week 10 starts in 10d 10h 10m 10s</p>
      </div>
      <Button tabIndex={-1}>Enter your tips</Button>
    </div>
  )
}
