import { useEffect, useState } from 'react'
import { useParams } from 'react-router'
import { useSelector } from 'react-redux'
import { LADDER_PAGE_SIZE, TOP_RANKING_HIGHLIGHT, type Sport } from '@tipping/contract/constants'
import type { FixtureRound, Squad } from '@tipping/contract/static-files'
import { useMediaQuery } from '../../lib/use-media-query.ts'
import { LadderRoundSelect, ladderRounds, tipsRoundFor } from './ladder-round-select.tsx'
import { LadderTable } from './ladder-table.tsx'
import * as leaguesApi from './leagues-api.ts'
import styles from './leagues.module.css'
import { SIDE_COLUMN_QUERY, SideColumn, YourLeaguesCard } from './side-cards.tsx'
import { TeamLadderCard } from './team-ladder-card.tsx'
import { useLadder } from './use-ladder.ts'

const SEARCH_DEBOUNCE_MS = 350

/** Spec 2 "Ladders and rankings": everyone in the competition, by week or overall, searchable. */
export default function RankingsPage() {
  const sport = useParams().sport as Sport
  const userId = useSelector((s: { session: { user: { id: number } } }) => s.session.user.id)
  const [rounds, setRounds] = useState<FixtureRound[]>([])
  const [squads, setSquads] = useState<Map<number, Squad>>(new Map())
  const [round, setRound] = useState<number | null>(null)
  const [typed, setTyped] = useState('')
  const [search, setSearch] = useState('')
  const [available, setAvailable] = useState(true)
  const wide = useMediaQuery(SIDE_COLUMN_QUERY)

  useEffect(() => {
    let live = true
    Promise.all([leaguesApi.fetchRounds(sport), leaguesApi.fetchSquads(sport)])
      .then(([r, s]) => {
        if (!live) return
        setRounds(r.rounds)
        setSquads(new Map(s.squads.map((x) => [x.id, x])))
      })
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [sport])

  useEffect(() => {
    const t = setTimeout(() => setSearch(typed.trim()), SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(t)
  }, [typed])

  const ladder = useLadder(
    async (page) => {
      const res = await leaguesApi.overallRankings(sport, page, round, search)
      setAvailable(res.available)
      // While searching, the caller's own row is not pinned above the matches.
      return search ? { ...res, user: null } : res
    },
    `${sport}-${round}-${search}`,
    userId,
  )

  return (
    <div className={styles.page}>
      <div className={styles.titleBar}>
        <h1>Rankings</h1>
      </div>
      <div className={styles.withSide}>
        <div className={styles.stack}>
          {!available ? (
            <p className={styles.notice} role="note">
              <strong>Rankings Information:</strong> Please note: Rankings will be available after
              the 1st match.
            </p>
          ) : null}
          <div className={styles.toolbar}>
            <LadderRoundSelect
              id="rankings-round"
              rounds={ladderRounds(rounds)}
              value={round}
              onChange={setRound}
            />
            <label htmlFor="rankings-search">
              Find a tipper
              <input
                id="rankings-search"
                type="search"
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                placeholder="Name or team"
                style={{
                  minHeight: 44,
                  font: 'inherit',
                  padding: '8px 12px',
                  borderRadius: 8,
                  border: '1px solid var(--line)',
                }}
              />
            </label>
          </div>
          <LadderTable
            sport={sport}
            ladder={ladder}
            userId={userId}
            topHighlight={TOP_RANKING_HIGHLIGHT}
            showWeek={round !== null}
            tipsRound={tipsRoundFor(rounds, round)}
            squads={squads}
            caption="Overall rankings"
            expectedRows={LADDER_PAGE_SIZE}
          />
        </div>
        {/* A wide screen adds the user's leagues: their ladders are a click from the rankings. */}
        {wide ? (
          <SideColumn>
            <TeamLadderCard sport={sport} />
            <YourLeaguesCard sport={sport} />
          </SideColumn>
        ) : (
          <TeamLadderCard sport={sport} />
        )}
      </div>
    </div>
  )
}
