import { useState } from 'react'
import type { RoundNumber } from '@tipping/contract/ids'
import type { FixtureRound } from '@tipping/contract/static-files'
import { formatRoundDate } from '../../lib/dates.ts'
import styles from './round-selector.module.css'

interface Props {
  rounds: readonly FixtureRound[]
  current: RoundNumber
  onChange: (roundNumber: RoundNumber) => void
}

/** Previous / next arrows, disabled at the first and last round (spec 2: Round selector). */
export function RoundSelector({ rounds, current, onChange }: Props) {
  const index = rounds.findIndex((r) => r.number === current)
  const round = rounds[index]
  const prev = index > 0 ? rounds[index - 1] : undefined
  const next = index >= 0 && index < rounds.length - 1 ? rounds[index + 1] : undefined
  const [open, setOpen] = useState(false)
  return (
    <nav
      className={`${styles.selector} ${round?.isGoldenWeek ? styles.isGolden : ''}`}
      aria-label="Choose a week"
    >
      <button
        type="button"
        className={styles.arrow}
        data-testid="round-prev"
        disabled={!prev}
        onClick={() => prev && onChange(prev.number)}
        aria-label={prev ? `Previous: ${prev.label}` : 'No earlier week'}
      >
        ‹
      </button>
      <div className={styles.middle} aria-live="polite">
        <button
          type="button"
          className={styles.label}
          data-testid="round-label"
          aria-expanded={open}
          aria-controls="round-grid"
          onClick={() => setOpen(!open)}
        >
          {round ? `Week ${round.number}` : `Week ${current}`} <span aria-hidden="true">▾</span>
        </button>
        {round ? (
          <span className={styles.dates}>
            {formatRoundDate(round.startDate)} – {formatRoundDate(round.endDate)}
          </span>
        ) : null}
        {round?.isGoldenWeek ? (
          // Two pills that wrap as wholes on a narrow phone, never mid-label.
          <span className={styles.goldenRow}>
            <span className={styles.golden}>BKT GOLDEN WEEK</span>
            <span className={styles.golden}>DOUBLE POINTS</span>
          </span>
        ) : null}
      </div>
      <button
        type="button"
        className={styles.arrow}
        data-testid="round-next"
        disabled={!next}
        onClick={() => next && onChange(next.number)}
        aria-label={next ? `Next: ${next.label}` : 'No later week'}
      >
        ›
      </button>
      {open ? (
        <div id="round-grid" className={styles.grid} role="group" aria-label="All weeks">
          {rounds.map((r) => (
            <button
              key={r.id}
              type="button"
              className={`${styles.cell} ${r.isGoldenWeek ? styles.goldCell : ''} ${r.number === current ? styles.currentCell : ''}`}
              aria-current={r.number === current ? 'true' : undefined}
              aria-label={`Week ${r.number}${r.isGoldenWeek ? ', BKT Golden Week' : ''}`}
              data-testid={`round-option-${r.number}`}
              onClick={() => {
                setOpen(false)
                onChange(r.number)
              }}
            >
              {r.number}
            </button>
          ))}
        </div>
      ) : null}
    </nav>
  )
}
