import type { RoundNumber } from '@tipping/contract/ids'
import { useEffect, useState } from 'react'
import { LADDER_PAGE_SIZE, TOP_RANKING_HIGHLIGHT } from '@tipping/contract/constants'
import { useSport } from '../../lib/sport.ts'
import { useFixtureQuery, squadsById, useSquadsQuery } from '../../lib/static-api.ts'
import { useCurrentUser } from '../../lib/use-current-user.ts'
import { useMediaQuery } from '../../lib/use-media-query.ts'
import { LadderRoundSelect, ladderRounds, tipsRoundFor } from './ladder-round-select.tsx'
import { LadderTable } from './ladder-table.tsx'
import { useRankingsInfiniteQuery } from './leagues-api.ts'
import styles from './leagues.module.css'
import { SIDE_COLUMN_QUERY, SideColumn, YourLeaguesCard } from './side-cards.tsx'
import { TeamLadderCard } from './team-ladder-card.tsx'
import { ladderOf } from './use-ladder.ts'
import { usePageTitle } from '../../lib/page-title.ts'

const SEARCH_DEBOUNCE_MS = 350
const NO_ROUNDS: never[] = []

/** Spec 2 "Ladders and rankings": everyone in the competition, by week or overall, searchable. */
export default function RankingsPage() {
  usePageTitle('Rankings')
  const sport = useSport()
  const userId = useCurrentUser().id
  const rounds = useFixtureQuery(sport).data?.rounds ?? NO_ROUNDS
  const squads = squadsById(useSquadsQuery(sport).data)
  const [round, setRound] = useState<RoundNumber | null>(null)
  const [typed, setTyped] = useState('')
  const [search, setSearch] = useState('')
  const wide = useMediaQuery(SIDE_COLUMN_QUERY)

  useEffect(() => {
    const t = setTimeout(() => setSearch(typed.trim()), SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(t)
  }, [typed])

  const query = useRankingsInfiniteQuery({ sport, round, search })
  const available = query.currentData?.pages[0]?.available ?? true
  // While searching, the caller's own row is not pinned above the matches.
  const pages = query.currentData?.pages.map((p) => (search ? { ...p, user: null } : p))
  const ladder = ladderOf({ ...query, currentData: pages && { pages } }, userId)

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
