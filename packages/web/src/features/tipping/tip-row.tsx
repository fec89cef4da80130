import { useEffect, useRef, useState } from 'react'
import { TIP_ROW_SCROLL_PX, TIP_ROW_ARROWS_AFTER } from '@tipping/contract/constants'
import { tipperName } from '@tipping/contract/names'
import type { MateTip } from '@tipping/contract/scores'
import type { Squad } from '@tipping/contract/static-files'
import styles from './tip-row.module.css'

interface Props {
  tips: readonly MateTip[]
  squads: ReadonlyMap<number, Squad>
  winnerSquadId: number | null
  isMarginGame: boolean
}

/** Spec 2 "Tip row": what league mates tipped on a completed match, in a strip that scrolls by
 * a fixed step with arrows once it holds more than a few tips. */
export function TipRow({ tips, squads, winnerSquadId, isMarginGame }: Props) {
  const strip = useRef<HTMLUListElement | null>(null)
  const [edges, setEdges] = useState({ start: true, end: true })
  const arrows = tips.length > TIP_ROW_ARROWS_AFTER

  const measure = () => {
    const el = strip.current
    if (!el) return
    setEdges({
      start: el.scrollLeft <= 0,
      end: el.scrollLeft + el.clientWidth >= el.scrollWidth - 1,
    })
  }
  useEffect(measure, [tips])

  const scroll = (direction: 1 | -1) =>
    strip.current?.scrollBy({ left: direction * TIP_ROW_SCROLL_PX, behavior: 'smooth' })

  if (tips.length === 0) {
    return (
      <p className={styles.empty}>
        No league mates' tips to show. Join or create a league to compare tips with friends.
      </p>
    )
  }
  return (
    <section className={styles.section} aria-label="League mates' tips">
      <h3 className={styles.title}>League mates&apos; tips</h3>
      <div className={styles.row}>
        {arrows ? (
          <button
            type="button"
            className={styles.arrow}
            aria-label="Earlier tips"
            disabled={edges.start}
            onClick={() => scroll(-1)}
          >
            ‹
          </button>
        ) : null}
        <ul className={styles.strip} ref={strip} onScroll={measure} tabIndex={0}>
          {tips.map((t) => {
            const squad = squads.get(t.squad)
            const right = winnerSquadId !== null && t.squad === winnerSquadId
            return (
              <li
                key={t.userId}
                className={`${styles.tip} ${winnerSquadId === null ? '' : right ? styles.right : styles.wrong}`}
              >
                <img src={`/static/logo/${t.squad}.webp`} alt="" width={24} height={24} />
                <span className={styles.name}>{tipperName(t)}</span>
                <span className={styles.detail}>
                  {squad?.shortName ?? 'Unknown'}
                  {isMarginGame && t.margin !== null ? ` · ${t.margin} sixes` : ''}
                  {t.isAutoTip ? ' · auto' : ''}
                </span>
              </li>
            )
          })}
        </ul>
        {arrows ? (
          <button
            type="button"
            className={styles.arrow}
            aria-label="Later tips"
            disabled={edges.end}
            onClick={() => scroll(1)}
          >
            ›
          </button>
        ) : null}
      </div>
    </section>
  )
}
