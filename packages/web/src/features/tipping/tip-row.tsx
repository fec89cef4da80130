import { useEffect, useRef, useState } from 'react'
import { TIP_ROW_SCROLL_PX, TIP_ROW_ARROWS_AFTER } from '@tipping/contract/constants'
import { tipperName } from '@tipping/contract/names'
import type { MateTip } from '@tipping/contract/scores'
import type { Squad } from '@tipping/contract/static-files'
import { formatSixes } from '../../lib/numbers.ts'
import { PHONE_QUERY, useMediaQuery } from '../../lib/use-media-query.ts'
import styles from './tip-row.module.css'

interface Props {
  tips: readonly MateTip[]
  squads: ReadonlyMap<number, Squad>
  winnerSquadId: number | null
  isMarginGame: boolean
}

/**
 * Spec 2 "Tip row": what league mates tipped on a completed match, three tips to a view, with
 * arrows once there are more than three. On a desktop an arrow scrolls the spec's 1000 px; on a
 * phone (issue 27) it moves by the tips in view, so none is skipped unseen, and names wrap onto a
 * second line instead of being cut to the same few letters.
 */
export function TipRow({ tips, squads, winnerSquadId, isMarginGame }: Props) {
  const strip = useRef<HTMLDivElement | null>(null)
  const [edges, setEdges] = useState({ start: true, end: true })
  const arrows = tips.length > TIP_ROW_ARROWS_AFTER
  const phone = useMediaQuery(PHONE_QUERY)

  const measure = () => {
    const el = strip.current
    if (!el) return
    setEdges({
      start: el.scrollLeft <= 0,
      end: el.scrollLeft + el.clientWidth >= el.scrollWidth - 1,
    })
  }
  useEffect(measure, [tips])

  const scroll = (direction: 1 | -1) => {
    const el = strip.current
    if (!el) return
    const step = phone ? el.clientWidth : TIP_ROW_SCROLL_PX
    el.scrollBy({ left: direction * step, behavior: 'smooth' })
  }

  if (tips.length === 0) {
    return (
      <p className={styles.empty}>
        No league mates' tips to show. Join or create a league to compare tips with friends.
      </p>
    )
  }
  return (
    <section className={styles.section} aria-label="League mates' tips">
      <div className={styles.head}>
        <h3 className={styles.title}>League mates&apos; tips</h3>
        {arrows ? (
          <div className={styles.arrows}>
            <button
              type="button"
              className={styles.arrow}
              aria-label="Earlier tips"
              disabled={edges.start}
              onClick={() => scroll(-1)}
            >
              ‹
            </button>
            <button
              type="button"
              className={styles.arrow}
              aria-label="Later tips"
              disabled={edges.end}
              onClick={() => scroll(1)}
            >
              ›
            </button>
          </div>
        ) : null}
      </div>
      {/* A labelled region, so a screen reader can find the strip; while it scrolls, it takes
          the keyboard's focus too (axe's scrollable-region-focusable: not every browser makes a
          scroll container focusable by itself), besides the arrow buttons above. */}
      <div
        className={styles.scroller}
        ref={strip}
        onScroll={measure}
        role="region"
        tabIndex={arrows ? 0 : undefined}
        aria-label={arrows ? 'Tips, scroll sideways for more' : 'Tips'}
      >
        <ul className={styles.strip}>
          {tips.map((t) => {
            const squad = squads.get(t.squad)
            const right = winnerSquadId !== null && t.squad === winnerSquadId
            return (
              <li
                key={t.userId}
                className={`${styles.tip} ${winnerSquadId === null ? '' : right ? styles.right : styles.wrong}`}
              >
                <span className={styles.name}>{tipperName(t)}</span>
                <span className={styles.detail}>
                  <img src={`/static/logo/${t.squad}.webp`} alt="" width={18} height={18} />
                  <span>
                    {squad?.shortName ?? 'Unknown'}
                    {isMarginGame && t.margin !== null ? ` · ${formatSixes(t.margin)}` : ''}
                    {t.isAutoTip ? ' · auto' : ''}
                  </span>
                </span>
              </li>
            )
          })}
        </ul>
      </div>
    </section>
  )
}
