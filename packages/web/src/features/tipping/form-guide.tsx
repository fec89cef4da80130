import type { FormGuideFile, Squad } from '@tipping/contract/static-files'
import styles from './form-guide.module.css'

type Entry = FormGuideFile['squads'][string][number]
const LABEL = { win: 'Win', loss: 'Loss', draw: 'Draw' } as const
const SHOWN = 5

/** Spec 2: a collapsible FORM GUIDE, each team's previous results with the opponent's logo. */
export function FormGuide({
  sides,
  form,
  squads,
}: {
  sides: number[]
  form: FormGuideFile['squads']
  squads: ReadonlyMap<number, Squad>
}) {
  return (
    <details className={styles.guide}>
      <summary className={styles.summary}>FORM GUIDE</summary>
      <div className={styles.columns}>
        {sides.map((id) => {
          const entries: Entry[] = (form[String(id)] ?? []).slice(0, SHOWN)
          return (
            <div key={id}>
              <strong>{squads.get(id)?.nickname ?? ''}</strong>
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
    </details>
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
