import { Fragment, useEffect, useState, type ReactNode } from 'react'
import { skipToken } from '@reduxjs/toolkit/query'
import { LADDER_PAGE_SIZE, type Sport } from '@tipping/contract/constants'
import { tipperName } from '@tipping/contract/names'
import type { RankingRow } from '@tipping/contract/scores'
import type { FixtureRound, Squad } from '@tipping/contract/static-files'
import { formatTipDate } from '../../lib/dates.ts'
import { formatSixes } from '../../lib/numbers.ts'
import { PHONE_QUERY, useMediaQuery } from '../../lib/use-media-query.ts'
import { Button } from '../../ui/button.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { useTipsOfUserQuery } from './leagues-api.ts'
import styles from './ladder-table.module.css'
import type { LadderState } from './use-ladder.ts'

interface Props {
  sport: Sport
  ladder: LadderState
  userId: number
  /** How many top ranks are highlighted: 3 in league ladders, 1 in rankings (spec 2). */
  topHighlight: number
  /** False for the overall view, which hides week points. */
  showWeek: boolean
  /** The week whose tips an expanded row shows (completed matches only). */
  tipsRound: FixtureRound | null
  squads: ReadonlyMap<number, Squad>
  caption: string
  /** Rows to hold space for while the first page loads, so nothing below jumps (CLS). */
  expectedRows: number
  /** Chips after a tipper's name (a league's honours and "still in it", issue 31). */
  rowExtra?: (r: RankingRow) => ReactNode
  /** Under a member's tips when their row is open (a league's head-to-head link). */
  detailExtra?: (r: RankingRow) => ReactNode
}

/** Spec 2 "Ladders and rankings": the league ladder and the rankings share this table. */
export function LadderTable(p: Props) {
  const [mobileView, setMobileView] = useState<'week' | 'total'>('week')
  // A newly chosen week opens on its week points; overall has only totals.
  useEffect(() => setMobileView('week'), [p.showWeek])
  const [open, setOpen] = useState<number | null>(null)
  const phone = useMediaQuery(PHONE_QUERY)
  const view = p.showWeek ? mobileView : 'total'
  // A phone shows one points column (the View toggle picks it) and no Margin column.
  const showWeekCol = p.showWeek && (!phone || view === 'week')
  const showTotalCol = !phone || view === 'total'
  const showMarginCol = !phone
  const columns = 2 + Number(showWeekCol) + Number(showTotalCol) + Number(showMarginCol)
  const { rows, pinned, loading, error, nextPage } = p.ladder

  const row = (r: RankingRow, isPinned: boolean) => {
    const mine = r.userId === p.userId
    const top = r.rank > 0 && r.rank <= p.topHighlight
    const expanded = open === r.userId && !isPinned
    const cls = [styles.row, mine ? styles.mine : '', top ? styles.top : ''].join(' ')
    return (
      <Fragment key={`${isPinned ? 'pin' : 'row'}-${r.userId}`}>
        <tr className={cls} data-testid={isPinned ? 'pinned-row' : undefined}>
          <td className={styles.pos}>{r.rank || '–'}</td>
          <td className={styles.name}>
            <button
              type="button"
              className={styles.expand}
              aria-expanded={open === r.userId}
              onClick={() => setOpen(open === r.userId ? null : r.userId)}
            >
              <span>{tipperName(r)}</span>
              {p.rowExtra?.(r)}
              {mine ? <span className={styles.you}>You</span> : null}
              <span aria-hidden="true" className={styles.chevron}>
                {open === r.userId ? '▴' : '▾'}
              </span>
            </button>
          </td>
          {showWeekCol ? (
            <td className={styles.num}>
              {r.points} <span className={styles.sub}>({r.margin})</span>
            </td>
          ) : null}
          {showTotalCol ? (
            <td className={styles.num}>
              {r.totalPoints} <span className={styles.sub}>({r.totalMargin})</span>
            </td>
          ) : null}
          {showMarginCol ? (
            <td className={styles.num}>{p.showWeek ? r.margin : r.totalMargin}</td>
          ) : null}
        </tr>
        {open === r.userId && (expanded || isPinned) ? (
          <tr className={styles.detailRow}>
            <td colSpan={columns}>
              <TipsOf sport={p.sport} round={p.tipsRound} userId={r.userId} squads={p.squads} />
              {p.detailExtra?.(r)}
            </td>
          </tr>
        ) : null}
      </Fragment>
    )
  }

  return (
    <div className={styles.wrap}>
      {p.showWeek ? (
        <div className={styles.viewToggle}>
          <span id="ladder-view-label">View</span>
          <div role="group" aria-labelledby="ladder-view-label" className={styles.segmented}>
            {(['week', 'total'] as const).map((v) => (
              <button
                key={v}
                type="button"
                aria-pressed={mobileView === v}
                onClick={() => setMobileView(v)}
              >
                {v === 'week' ? 'Week' : 'Total'}
              </button>
            ))}
          </div>
        </div>
      ) : null}
      <table className={styles.table}>
        <caption className="visually-hidden">{p.caption}</caption>
        <thead>
          <tr>
            <th scope="col" className={styles.pos}>
              {/* Spec 2: the column is Position. A phone's narrow column shows "Pos" and keeps
                  "Position" for screen readers; from 640 px everyone reads Position. */}
              <span className={styles.longLabel}>Position</span>
              <span className={styles.shortLabel} aria-hidden="true">
                Pos
              </span>
            </th>
            <th scope="col">Username / Tipper</th>
            {showWeekCol ? (
              <th scope="col" className={styles.num}>
                Week pts <span className={styles.sub}>(margin)</span>
              </th>
            ) : null}
            {showTotalCol ? (
              <th scope="col" className={styles.num}>
                Total Pts <span className={styles.sub}>(margin)</span>
              </th>
            ) : null}
            {showMarginCol ? (
              <th scope="col" className={styles.num}>
                Margin
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {pinned ? row(pinned, true) : null}
          {pinned ? (
            <tr aria-hidden="true" className={styles.gap}>
              <td colSpan={columns} />
            </tr>
          ) : null}
          {rows.map((r) => row(r, false))}
          {loading && rows.length === 0
            ? Array.from({ length: Math.min(p.expectedRows, LADDER_PAGE_SIZE) }, (_, i) => (
                <tr key={`skeleton-${i}`} aria-hidden="true" className={styles.skeleton}>
                  <td colSpan={columns}>
                    <span />
                  </td>
                </tr>
              ))
            : null}
        </tbody>
      </table>
      {error ? (
        <p role="alert" className={styles.message}>
          {error}
        </p>
      ) : null}
      {!loading && !error && rows.length === 0 ? (
        <p className={styles.message}>No results</p>
      ) : null}
      {loading && rows.length > 0 ? <Spinner label="Loading the ladder" /> : null}
      {nextPage !== null && !loading ? (
        <div className={styles.more}>
          <Button variant="secondary" onClick={p.ladder.loadMore}>
            Load more
          </Button>
        </div>
      ) : null}
    </div>
  )
}

/** An expanded row: that tipper's tips for the week, completed matches only (spec 6). */
function TipsOf({
  sport,
  round,
  userId,
  squads,
}: {
  sport: Sport
  round: FixtureRound | null
  userId: number
  squads: ReadonlyMap<number, Squad>
}) {
  const roundNumber = round?.number ?? null
  const tips = useTipsOfUserQuery(
    roundNumber === null ? skipToken : { sport, round: roundNumber, userId },
  )
  const data = tips.isError ? 'error' : (tips.currentData ?? null)
  if (!round) return <p className={styles.tipsNote}>No week has finished matches yet.</p>
  if (data === null) return <Spinner label="Loading tips" />
  if (data === 'error') return <p className={styles.tipsNote}>Those tips could not be loaded.</p>
  if (data.predictions.length === 0)
    return (
      <p className={styles.tipsNote}>
        Tips show here once matches of {round.label || `week ${round.number}`} finish.
      </p>
    )
  const matches = new Map(round.matches.map((m) => [m.id, m]))
  return (
    <ul className={styles.tips} aria-label={`Tips for ${round.label || `week ${round.number}`}`}>
      {data.predictions.map((t) => {
        const m = matches.get(t.match)
        const picked = squads.get(t.squad)
        const vs = m
          ? `${squads.get(m.homeSquadId)?.shortName ?? '?'} v ${squads.get(m.awaySquadId)?.shortName ?? '?'}`
          : `Match ${t.match}`
        const verdict =
          t.squad === 0 ? 'No tip' : t.isCorrect ? 'Correct' : t.isCorrect === false ? 'Wrong' : ''
        return (
          <li
            key={t.match}
            className={
              t.isCorrect ? styles.tipRight : t.isCorrect === false ? styles.tipWrong : styles.tip
            }
          >
            <span className={styles.vs}>
              <span>{vs}</span>
              {m ? (
                // Spec 2: a tip's date reads ccc dd-MM-yyyy (the day of its match, in UTC).
                <time className={styles.tipDate} dateTime={m.date}>
                  {formatTipDate(m.date)}
                </time>
              ) : null}
            </span>
            {t.squad > 0 ? (
              <img src={`/static/logo/${t.squad}.webp`} alt="" width={20} height={20} />
            ) : (
              <span aria-hidden="true" />
            )}
            <span>
              {picked?.shortName ?? '—'}
              {t.isAutoTip ? ' (auto)' : ''}
              {t.isMarginGame && t.margin !== null ? ` · ${formatSixes(t.margin)}` : ''}
            </span>
            <span className={styles.verdict}>{verdict}</span>
          </li>
        )
      })}
    </ul>
  )
}
