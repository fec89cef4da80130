import type { FormGuideFile, Squad } from '@tipping/contract/static-files'
import styles from './form-guide.module.css'

type Entry = FormGuideFile['squads'][string][number]
const LABEL = { win: 'Win', loss: 'Loss', draw: 'Draw' } as const
const SHOWN = 5

/**
 * Spec 2: the collapsible FORM GUIDE's control, a disclosure button: its chevron points down while
 * closed and turns up when open, and `aria-expanded` tells a screen reader the same.
 */
export function FormGuideToggle({
  open,
  controls,
  onToggle,
}: {
  open: boolean
  /** The id of the panel it shows and hides. */
  controls: string
  onToggle: () => void
}) {
  return (
    <button
      type="button"
      className={styles.toggle}
      aria-expanded={open}
      aria-controls={open ? controls : undefined}
      onClick={onToggle}
    >
      <span className={styles.toggleText}>Form guide</span>
      <svg className={styles.chevron} viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
        <path d="M3.5 6 8 10.5 12.5 6" fill="none" stroke="currentColor" strokeWidth="2" />
      </svg>
    </button>
  )
}

/** The FORM GUIDE's panel: each team's previous results with the opponent's logo. */
export function FormGuide({
  id,
  sides,
  form,
  squads,
}: {
  id: string
  sides: number[]
  form: FormGuideFile['squads']
  squads: ReadonlyMap<number, Squad>
}) {
  return (
    <div id={id} className={styles.columns} role="region" aria-label="Form guide">
      {sides.map((squadId) => {
        const entries: Entry[] = (form[String(squadId)] ?? []).slice(0, SHOWN)
        return (
          <div key={squadId}>
            <strong>{squads.get(squadId)?.nickname ?? ''}</strong>
            {entries.length === 0 ? (
              <p className={styles.empty}>No matches yet</p>
            ) : (
              <ul className={styles.list}>
                {entries.map((e) => (
                  <li key={e.match} className={styles.entry}>
                    <span className={`${styles.result} ${styles[e.result]}`}>
                      {LABEL[e.result]}
                    </span>
                    <img
                      src={`/static/logo/${e.opponent}.webp`}
                      alt=""
                      width={22}
                      height={22}
                      loading="lazy"
                    />
                    <span>v {squads.get(e.opponent)?.shortName ?? ''}</span>
                  </li>
                ))}
              </ul>
            )}
          </div>
        )
      })}
    </div>
  )
}

/** The closable Tips popup for one match (spec 4: the help panel toggles by pick id). */
export function TipsPanel({
  isMarginGame,
  onClose,
}: {
  isMarginGame: boolean
  onClose: () => void
}) {
  return (
    <div className={styles.tipsPanel} role="region" aria-label="Tips">
      <button type="button" className={styles.close} aria-label="Close tips" onClick={onClose}>
        ×
      </button>
      <ul>
        <li>Tap the team you think will win. You can change it until the match starts.</li>
        <li>Miss a match and you get the away team as an auto-tip.</li>
        {isMarginGame ? (
          <li>
            This is the Super Sixes match: call the total sixes by both teams; the closest call
            breaks ties.
          </li>
        ) : null}
        <li>Press Save to lock in your picks.</li>
      </ul>
    </div>
  )
}
