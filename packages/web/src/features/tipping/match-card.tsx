import { memo, useId, useState, type CSSProperties, type ReactNode } from 'react'
import type { MatchId, SquadId } from '@tipping/contract/ids'
import type { LiveMatch } from '@tipping/contract/live'
import type { Match, Prediction } from '@tipping/contract/predictions'
import type { MateTip } from '@tipping/contract/scores'
import type { FormGuideFile, Squad, Venue } from '@tipping/contract/static-files'
import { isTippable } from '@tipping/contract/rules/rounds'
import { formatMatchTime } from '../../lib/dates.ts'
import { LockTime } from './lock-time.tsx'
import { FormGuide, FormGuideToggle, TipsPanel } from './form-guide.tsx'
import { LiveCard } from './live-card.tsx'
import { MarginControl } from './margin-control.tsx'
import { TipRow } from './tip-row.tsx'
import styles from './match-card.module.css'
import { formatSixes } from '../../lib/numbers.ts'

interface Props {
  match: Match
  pick: Prediction | undefined
  squads: ReadonlyMap<number, Squad>
  venue: Venue | undefined
  now: Date
  disabled: boolean
  form: FormGuideFile['squads']
  matchCentreUrl: string | null
  /** League mates' tips, once the match is complete (undefined while loading). */
  mateTips: readonly MateTip[] | undefined
  tipsOpen: boolean
  // The handlers are told the match, so one function serves every card and stays the same across
  // the page's renders (the card is memoised: decision 035).
  onToggleTips: (match: MatchId) => void
  onPick: (match: MatchId, squad: SquadId) => void
  onMargin: (match: MatchId, margin: number) => void
  /** The match's live score while it is in progress (issue 30), from the push channel. */
  live?: LiveMatch | undefined
  /** What is at stake for the user on each result, shown in the live card. */
  stakes?: ReactNode
}

/** Spec 4: tile colours for a complete match — green correct and counted, grey correct but not
 * counted, red wrong, faded when untipped. */
function tileClass(
  match: Match,
  pick: Prediction | undefined,
  squadId: number,
): string | undefined {
  const chosen = pick?.squad === squadId
  if (match.status !== 'complete') return chosen ? styles.selected : ''
  if (!pick || pick.squad === 0) return styles.faded
  if (!chosen) return ''
  if (pick.isCorrect) return pick.counted ? styles.correct : styles.correctUncounted
  return pick.isCorrect === false ? styles.wrong : styles.selected
}

/**
 * One match of the week (spec 2 "Match cards"). Laid out to be short on a phone, where a round of
 * eight is scrolled through (issue 27: an open card at 390 px is at most 260 px tall): each team
 * is one row of crest, name and its share of the tips; the form guide, the Tips popup and the
 * Match Centre share one row of small controls; the form guide opens below on demand.
 */
function MatchCardView({
  match,
  pick,
  squads,
  venue,
  now,
  disabled,
  form,
  matchCentreUrl,
  mateTips,
  tipsOpen,
  onToggleTips,
  onPick,
  onMargin,
  live,
  stakes,
}: Props) {
  const [formOpen, setFormOpen] = useState(false)
  const formId = useId()
  const open = isTippable(match, now) && !disabled
  const tipped = match.home_percent + match.away_percent > 0
  const sides = [
    {
      id: match.homeSquadId,
      home: true,
      runs: match.homeRuns,
      wickets: match.homeWicketsFallen,
      overs: match.homeOvers,
      percent: match.home_percent,
    },
    {
      id: match.awaySquadId,
      home: false,
      runs: match.awayRuns,
      wickets: match.awayWicketsFallen,
      overs: match.awayOvers,
      percent: match.away_percent,
    },
  ]
  const winner = match.winnerSquadId === null ? null : squads.get(match.winnerSquadId)
  const picked = pick !== undefined && pick.squad > 0
  const locked = match.status === 'scheduled' && !open
  // The Super Sixes match is named by its margin control's title, so it needs no badge of its own.
  const badges =
    match.status !== 'scheduled' || locked || pick?.isAutoTip === true || pick?.isAutopilot === true
  return (
    <article
      className={styles.card}
      data-testid={`match-card-${match.id}`}
      aria-label={`Match ${match.number}`}
    >
      <header className={styles.head}>
        <span className={styles.venue}>{venue?.name ?? 'Venue to be confirmed'}</span>
        <time className={styles.time} dateTime={match.date}>
          {formatMatchTime(match.date)} UTC
        </time>
      </header>
      <div className={styles.body}>
        {badges ? (
          <div className={styles.badges}>
            {match.status === 'active' ? (
              <span className={`${styles.badge} ${styles.live}`}>MATCH IS LIVE</span>
            ) : null}
            {match.status === 'complete' ? <span className={styles.badge}>FULL TIME</span> : null}
            {locked ? <span className={styles.badge}>LOCKED</span> : null}
            {pick?.isAutoTip ? <span className={styles.badge}>AUTO-TIP</span> : null}
            {/* Decision 026: an ordinary tip autopilot placed; the player's own pick clears it. */}
            {pick?.isAutopilot ? (
              <span className={styles.badge} data-testid="autopilot-badge">
                PLACED BY AUTOPILOT
              </span>
            ) : null}
          </div>
        ) : null}
        <div className={styles.teams}>
          {sides.map((side, i) => {
            const squad = squads.get(side.id)
            const chosen = pick?.squad === side.id
            const colour = squad?.colour ?? 'var(--muted)'
            const style = {
              '--team': colour,
              '--team-ring': `color-mix(in srgb, ${colour} 35%, transparent)`,
            } as CSSProperties
            return [
              i === 1 ? (
                <span key="vs" className={styles.vs} aria-hidden="true">
                  v
                </span>
              ) : null,
              <button
                key={side.id}
                type="button"
                style={style}
                className={`${styles.team} ${tileClass(match, pick, side.id) ?? ''}`}
                data-testid={`pick-${match.id}-${side.id}`}
                aria-pressed={chosen}
                disabled={!open}
                onClick={() => onPick(match.id, side.id)}
                aria-label={`${squad?.name ?? 'Squad'}${side.home ? ' (home)' : ''}${chosen ? ', your tip' : ''}`}
              >
                {chosen ? (
                  <span className={styles.tick} aria-hidden="true">
                    ✓
                  </span>
                ) : null}
                <img
                  className={styles.crest}
                  src={`/static/logo/${side.id}.webp`}
                  alt=""
                  width={64}
                  height={64}
                  loading="lazy"
                />
                <span className={styles.teamText}>
                  <span className={styles.teamName}>{squad?.name ?? '…'}</span>
                  <span className={styles.home}>
                    {side.home ? 'Home' : 'Away'}
                    {tipped ? <span className={styles.percent}> · {side.percent}%</span> : null}
                  </span>
                  {side.runs !== null ? (
                    <span className={styles.score}>
                      <span>
                        {side.runs}/{side.wickets ?? 0}
                      </span>
                      <span className={styles.overs}>{side.overs} ov</span>
                    </span>
                  ) : null}
                </span>
              </button>,
            ]
          })}
        </div>
        {tipped ? (
          // Spec 2: the live split of picks; each team's share is also printed in its button.
          <div
            className={styles.splitBar}
            role="img"
            aria-label={`Tippers: ${match.home_percent}% home, ${match.away_percent}% away`}
          >
            <span
              style={{
                width: `${match.home_percent}%`,
                background: squads.get(match.homeSquadId)?.colour,
              }}
            />
            <span
              style={{
                width: `${match.away_percent}%`,
                background: squads.get(match.awaySquadId)?.colour,
              }}
            />
          </div>
        ) : null}
        {match.status === 'active' && live ? (
          <LiveCard
            live={live}
            homeSquadId={match.homeSquadId}
            awaySquadId={match.awaySquadId}
            squads={squads}
            pick={pick}
            isMarginGame={match.isMarginGame}
          >
            {stakes}
          </LiveCard>
        ) : null}
        {match.status === 'complete' ? (
          <p className={styles.result}>
            {winner ? `${winner.name} won` : match.outcome === 'tie' ? 'Tied' : 'No result'}
            {match.isMarginGame && match.sixes !== null ? ` · ${formatSixes(match.sixes)}` : ''}
          </p>
        ) : null}
        {match.status !== 'scheduled' ? <LockTime lockedAt={match.lockedAt} /> : null}
        {match.isMarginGame ? (
          <MarginControl
            value={pick?.margin ?? null}
            disabled={!open || !picked}
            onChange={(margin) => onMargin(match.id, margin)}
          />
        ) : null}
        <div className={styles.tools}>
          <FormGuideToggle
            open={formOpen}
            controls={formId}
            onToggle={() => setFormOpen(!formOpen)}
          />
          {matchCentreUrl && match.status !== 'complete' ? (
            <a
              className={styles.matchCentre}
              href={matchCentreUrl.replace('{match}', String(match.number))}
              target="_blank"
              rel="noopener noreferrer"
            >
              {match.status === 'active' ? 'Watch live' : 'Match Centre'}
              <span aria-hidden="true"> ↗</span>
              <span className="visually-hidden">
                {match.status === 'active' ? ' in the Match Centre' : ' preview'} (opens in a new
                tab)
              </span>
            </a>
          ) : null}
          <button
            type="button"
            className={styles.tipsButton}
            aria-expanded={tipsOpen}
            onClick={() => onToggleTips(match.id)}
          >
            Tips
          </button>
        </div>
        {formOpen ? (
          <FormGuide
            id={formId}
            sides={[match.homeSquadId, match.awaySquadId]}
            form={form}
            squads={squads}
          />
        ) : null}
        {tipsOpen ? (
          <TipsPanel isMarginGame={match.isMarginGame} onClose={() => onToggleTips(match.id)} />
        ) : null}
        {match.status !== 'complete' ? (
          <p className={styles.note}>
            You will have the ability to view other users tips when each game finishes.
          </p>
        ) : mateTips ? (
          <TipRow
            tips={mateTips}
            squads={squads}
            winnerSquadId={match.winnerSquadId}
            isMarginGame={match.isMarginGame}
          />
        ) : null}
      </div>
    </article>
  )
}

/**
 * The page re-renders each second for its clock; a card only when something it shows changed.
 * The clock matters to a card only through whether the match is still open for tips (decision
 * 035: re-rendering every card each second was the page's largest recurring main-thread work).
 */
const sameCard = (a: Props, b: Props): boolean => {
  for (const key of Object.keys(b) as (keyof Props)[])
    if (key !== 'now' && !Object.is(a[key], b[key])) return false
  return (
    Object.keys(a).length === Object.keys(b).length &&
    isTippable(a.match, a.now) === isTippable(b.match, b.now)
  )
}

export const MatchCard = memo(MatchCardView, sameCard)
