import { useId, useState } from 'react'
import type { AdminMatch, UpdateMatchBody } from '@tipping/contract/admin'
import type { LiveMatch, LiveScoreBody } from '@tipping/contract/live'
import type { MatchResultBody } from '@tipping/contract/results'
import { Button } from '../../ui/button.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import styles from './admin.module.css'
import { LiveScoreForm } from './live-score-form.tsx'
import { MatchEditForm } from './match-edit-form.tsx'
import { ResultForm } from './result-form.tsx'
import { formatSixes } from '../../lib/numbers.ts'
import { formatMatchClock, formatRoundDate } from '../../lib/dates.ts'

export interface Squad {
  name: string
  shortName: string
}

// In UTC and saying so, as players see the same match (spec 2), not in the browser's zone.
const when = (iso: string) => `${formatRoundDate(iso)}, ${formatMatchClock(iso)} UTC`

/** The result in a line: "SIX won · SIX 171/6 (20) · STA 160/8 (20) · 12 sixes". */
export function resultLine(m: AdminMatch, short: (squadId: number) => string): string {
  const r = m.result
  if (!r) return m.status === 'scheduled' ? 'Not started' : 'Awaiting the result'
  const outcome =
    r.outcome === 'win'
      ? `${short(r.winnerSquadId ?? 0)} won`
      : r.outcome === 'tie'
        ? 'Tie'
        : 'No result'
  const innings = (side: 'home' | 'away', squadId: number) => {
    const i = r[side]
    if (!i) return null
    return `${short(squadId)} ${i.runs ?? '-'}/${i.wickets ?? '-'}${i.overs ? ` (${i.overs})` : ''}`
  }
  return [
    r.method ? `${outcome} (${r.method})` : outcome,
    innings('home', m.homeSquadId),
    innings('away', m.awaySquadId),
    r.sixes === null ? null : formatSixes(r.sixes),
  ]
    .filter((part) => part !== null)
    .join(' · ')
}

/** A match that has started and has no result yet: what the admin came to enter. */
export const awaitsResult = (m: AdminMatch) => m.status !== 'scheduled' && m.result === null

/** A match in progress's live score: as it stands (undefined while it loads), and its save. */
export interface LiveEntry {
  current: LiveMatch | null | undefined
  save: (body: LiveScoreBody) => Promise<unknown>
}

interface Props {
  match: AdminMatch
  home: Squad
  away: Squad
  venueName: string
  venues: { id: number; name: string; city: string }[]
  setResult: (body: MatchResultBody) => Promise<unknown>
  updateMatch: (body: UpdateMatchBody) => Promise<unknown>
  /** Given for a match in progress (`active`) only: the live-score form opens from the row. */
  live?: LiveEntry | undefined
}

type Panel = 'result' | 'live' | 'schedule' | null

/**
 * One match in one compact row: teams, start, status, result and margin game at a glance. The
 * result form opens in place (already open while a started match awaits its result, so a round
 * is entered by working down the page); the live-score form (a match in progress) and the schedule
 * form open on demand.
 */
export function MatchRow({
  match: m,
  home,
  away,
  venueName,
  venues,
  setResult,
  updateMatch,
  live,
}: Props) {
  const [panel, setPanel] = useState<Panel>(awaitsResult(m) ? 'result' : null)
  const [saved, setSaved] = useState<string | null>(null)
  const id = useId()
  const toggle = (which: Exclude<Panel, null>) => {
    setSaved(null)
    setPanel((open) => (open === which ? null : which))
  }
  const short = (squadId: number) =>
    squadId === m.homeSquadId ? home.shortName : squadId === m.awaySquadId ? away.shortName : '?'
  const headingId = `${id}-title`

  return (
    <li className={styles.matchRow} aria-labelledby={headingId}>
      <div className={styles.matchLine}>
        <div className={styles.matchTeams}>
          <h2 id={headingId}>
            <span className={styles.matchNumber}>Match {m.number}:</span> {home.name} v {away.name}
          </h2>
          <p className={styles.meta}>
            {when(m.startsAt)} · {venueName}
          </p>
        </div>
        <div className={styles.matchResult}>
          <p>
            <span className={styles.badge}>{m.status}</span>{' '}
            {m.isMarginGame ? (
              <>
                <span className={`${styles.badge} ${styles.badgeMargin}`}>Margin game</span>{' '}
              </>
            ) : null}
            {resultLine(m, short)}
          </p>
          {/* Always there, so a screen reader announces the confirmation when it appears. */}
          <p role="status" className={styles.ok}>
            {saved}
          </p>
        </div>
        <div className={styles.matchActions}>
          {m.status === 'scheduled' ? null : (
            <Button
              variant="secondary"
              aria-expanded={panel === 'result'}
              aria-controls={panel === 'result' ? `${id}-result` : undefined}
              onClick={() => toggle('result')}
            >
              {m.result ? 'Correct result' : 'Enter result'}{' '}
              <span className="visually-hidden">of match {m.number}</span>
            </Button>
          )}
          {live ? (
            <Button
              variant="secondary"
              aria-expanded={panel === 'live'}
              aria-controls={panel === 'live' ? `${id}-live` : undefined}
              onClick={() => toggle('live')}
            >
              Live score <span className="visually-hidden">of match {m.number}</span>
            </Button>
          ) : null}
          <Button
            variant="secondary"
            aria-expanded={panel === 'schedule'}
            aria-controls={panel === 'schedule' ? `${id}-schedule` : undefined}
            onClick={() => toggle('schedule')}
          >
            Schedule <span className="visually-hidden">of match {m.number}</span>
          </Button>
        </div>
      </div>
      {panel === 'result' ? (
        <div id={`${id}-result`}>
          <ResultForm
            match={m}
            homeName={home.name}
            awayName={away.name}
            onSave={async (body) => {
              await setResult(body)
              setPanel(null)
              setSaved(`Result saved for match ${m.number}; scores and ladders updated.`)
            }}
          />
        </div>
      ) : null}
      {panel === 'live' && live ? (
        <div id={`${id}-live`}>
          {live.current === undefined ? (
            <Spinner label="Loading the live score" />
          ) : (
            <LiveScoreForm
              match={m}
              homeName={home.name}
              awayName={away.name}
              current={live.current}
              onSave={live.save}
            />
          )}
        </div>
      ) : null}
      {panel === 'schedule' ? (
        <div id={`${id}-schedule`}>
          <MatchEditForm match={m} venues={venues} onSave={updateMatch} />
        </div>
      ) : null}
    </li>
  )
}
