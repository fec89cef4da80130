import { MARGIN_MAX, MARGIN_MIN } from '@tipping/contract/constants'
import { clampMargin } from '@tipping/contract/rules/margin'
import { useId } from 'react'
import styles from './margin-control.module.css'

interface Props {
  value: number | null
  /** Spec 5: disabled with no team picked or when the match is not scheduled. */
  disabled: boolean
  onChange: (margin: number) => void
}

export function MarginControl({ value, disabled, onChange }: Props) {
  const id = useId()
  const current = value ?? 0
  return (
    <div className={styles.margin}>
      {/* One row beside the steppers: the Tips popup explains the Super Sixes at length. */}
      <label className={styles.title} htmlFor={id}>
        <span className={styles.kicker}>Super Sixes</span>
        <span>
          How many sixes?<span className="visually-hidden"> Both teams, this match.</span>
        </span>
      </label>
      <div className={styles.controls}>
        <button
          type="button"
          className={styles.step}
          aria-label="One fewer six"
          disabled={disabled || current <= MARGIN_MIN}
          onClick={() => onChange(clampMargin(current - 1))}
        >
          −
        </button>
        <input
          id={id}
          className={styles.input}
          type="number"
          inputMode="numeric"
          min={MARGIN_MIN}
          max={MARGIN_MAX}
          step={1}
          value={current}
          disabled={disabled}
          onChange={(e) => onChange(clampMargin(Number(e.target.value)))}
        />
        <button
          type="button"
          className={styles.step}
          aria-label="One more six"
          disabled={disabled || current >= MARGIN_MAX}
          onClick={() => onChange(clampMargin(current + 1))}
        >
          +
        </button>
      </div>
    </div>
  )
}
