import type { RoundNumber } from '@tipping/contract/ids'
import { useRef, useState } from 'react'
import { Link, Navigate, NavLink, useParams, useSearchParams } from 'react-router'
import { skipToken } from '@reduxjs/toolkit/query'
import { gameName, TOP_LEAGUE_HIGHLIGHT, type Sport } from '@tipping/contract/constants'
import type { League } from '@tipping/contract/leagues'
import { tipperName } from '@tipping/contract/names'
import type { RankingRow } from '@tipping/contract/scores'
import { shareUrl } from '../../lib/share.ts'
import { useSport } from '../../lib/sport.ts'
import { useFixtureQuery, squadsById, useSquadsQuery } from '../../lib/static-api.ts'
import { useCurrentUser } from '../../lib/use-current-user.ts'
import { useMediaQuery } from '../../lib/use-media-query.ts'
import { Button } from '../../ui/button.tsx'
import { ShareModal } from '../../ui/share-modal.tsx'
import { Panel } from '../../ui/panel.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { useCurrentInStrip } from '../../ui/use-current-in-strip.ts'
import { InviteModal } from './invite-modal.tsx'
import { LadderRoundSelect, ladderRounds, tipsRoundFor } from './ladder-round-select.tsx'
import { LadderTable } from './ladder-table.tsx'
import {
  StillInItChip,
  stillInIt,
  StillToPlayFor,
  useLeagueHonours,
  WeekWinners,
  WinsChip,
} from './honours.tsx'
import { LeagueHistory } from './league-history.tsx'
import { LeagueLiveStakes } from './league-live-stakes.tsx'
import { LeagueMembers } from './league-members.tsx'
import { LeagueSettings } from './league-settings.tsx'
import { FRESH, useLeagueLadderInfiniteQuery, useLeagueQuery } from './leagues-api.ts'
import styles from './leagues.module.css'
import { SIDE_COLUMN_QUERY, SideColumn, YourLeaguesCard } from './side-cards.tsx'
import { TeamLadderCard } from './team-ladder-card.tsx'
import { ladderOf } from './use-ladder.ts'
import { usePageTitle } from '../../lib/page-title.ts'

const SECTIONS = ['ladder', 'members', 'settings'] as const
const isSection = (value: string | undefined): value is Section =>
  (SECTIONS as readonly (string | undefined)[]).includes(value)
const NO_ROUNDS: never[] = []

/** The HTTP status of a failed read (0 when there was no answer). */
const asStatus = (error: unknown): number =>
  error && typeof error === 'object' && 'status' in error && typeof error.status === 'number'
    ? error.status
    : 0
type Section = (typeof SECTIONS)[number]

/** Spec 2: the single league view, `/{sport}/league/{league_id}/{section}`. */
export default function LeaguePage() {
  const params = useParams()
  const sport = useSport()
  const leagueId = Number(params.leagueId)
  const validId = Number.isInteger(leagueId) && leagueId > 0
  const [search, setSearch] = useSearchParams()
  const query = useLeagueQuery(validId ? { sport, id: leagueId } : skipToken, FRESH)
  const league = query.currentData?.league ?? null
  const failure = query.isError ? asStatus(query.error) : null
  const missing = !validId || failure === 404 || failure === 400
  const [inviteOpen, setInviteOpen] = useState(search.get('invite') === '1')
  const [sharing, setSharing] = useState(false)
  const wide = useMediaQuery(SIDE_COLUMN_QUERY)
  // Not found: the panel below names the page.
  usePageTitle(missing ? null : (league?.name ?? 'League'))
  const tabs = useRef<HTMLElement>(null)
  useCurrentInStrip(tabs, `${params.section ?? ''}/${league?.id ?? ''}`)

  const section = params.section
  if (!isSection(section))
    return <Navigate to={`/${sport}/league/${params.leagueId ?? ''}/ladder`} replace />
  if (missing)
    return (
      <Panel title="League not found">
        <p>That league does not exist, or it is private and you are not in it.</p>
        <p>
          <NavLink to={`/${sport}/leagues`}>Back to your leagues</NavLink>
        </p>
      </Panel>
    )
  if (!league) return <Spinner label="Loading the league" />

  const closeInvite = () => {
    setInviteOpen(false)
    if (search.has('invite')) setSearch({}, { replace: true, preventScrollReset: true })
  }
  const tab = ({ isActive }: { isActive: boolean }) =>
    `${styles.tab} ${isActive ? styles.tabActive : ''}`
  return (
    <div className={styles.page}>
      <header className={styles.hero}>
        <h1>{league.name}</h1>
        {league.description ? <p>{league.description}</p> : null}
        <div className={styles.heroMeta}>
          <span>{league.privacy === 'private' ? 'Private' : 'Public'} league</span>
          <span>
            {league.numUser} {league.numUser === 1 ? 'tipper' : 'tippers'}
          </span>
          <span>From week {league.startRound}</span>
          {league.code ? <span>Code {league.code}</span> : null}
        </div>
        {league.isMember && league.code ? (
          <div className={styles.heroActions}>
            <Button onClick={() => setInviteOpen(true)}>Invite friends</Button>
            <Button variant="secondary" onClick={() => setSharing(true)}>
              Share
            </Button>
          </div>
        ) : null}
      </header>
      <div className={styles.withSide}>
        <div className={styles.stack}>
          <nav ref={tabs} className={styles.tabs} aria-label="League sections">
            <NavLink to={`/${sport}/league/${league.id}/ladder`} className={tab}>
              Ladder
            </NavLink>
            <NavLink to={`/${sport}/league/${league.id}/members`} className={tab}>
              Members
            </NavLink>
            {league.isMember ? (
              <NavLink to={`/${sport}/league/${league.id}/head-to-head`} className={tab}>
                Head-to-head
              </NavLink>
            ) : null}
            {league.isMember ? (
              <NavLink to={`/${sport}/league/${league.id}/settings`} className={tab}>
                Settings
              </NavLink>
            ) : null}
          </nav>
          {section === 'ladder' ? <LeagueLadder sport={sport} league={league} /> : null}
          {section === 'ladder' ? <LeagueHistory sport={sport} leagueId={league.id} /> : null}
          {section === 'members' ? <LeagueMembers sport={sport} league={league} /> : null}
          {section === 'settings' && league.isMember ? (
            <LeagueSettings sport={sport} league={league} />
          ) : null}
        </div>
        {/* Issue 27: a wide screen's side column, the user's other leagues a click away. */}
        {wide ? (
          <SideColumn>
            <TeamLadderCard sport={sport} />
            <YourLeaguesCard sport={sport} />
          </SideColumn>
        ) : null}
      </div>
      <InviteModal sport={sport} league={league} open={inviteOpen} onClose={closeInvite} />
      <ShareModal
        open={sharing}
        onClose={() => setSharing(false)}
        text={`Follow ${league.name} on ${gameName(sport)}`}
        url={shareUrl(window.location.origin, sport, 'league', Date.now(), league.id)}
      />
    </div>
  )
}

function LeagueLadder({ sport, league }: { sport: Sport; league: League }) {
  const userId = useCurrentUser().id
  const rounds = useFixtureQuery(sport).data?.rounds ?? NO_ROUNDS
  const squads = squadsById(useSquadsQuery(sport).data)
  const [round, setRound] = useState<RoundNumber | null>(null)
  const query = useLeagueLadderInfiniteQuery({ sport, id: league.id, round }, FRESH)
  const ladder = ladderOf(query, userId)
  // Issue 31: weeks won beside each name; on the overall view, late in the season, whether each
  // member can still win; on a week's view, who won it.
  const honours = useLeagueHonours(sport, league.id)
  const remaining = honours.data?.remaining ?? null
  const shown = [...(ladder.pinned ? [ladder.pinned] : []), ...ladder.rows]
  const marks = remaining && round === null ? stillInIt(shown, remaining) : null
  const rowExtra = (r: RankingRow) => (
    <>
      <WinsChip count={honours.weeksWon.get(r.userId)?.length ?? 0} />
      {marks?.show ? <StillInItChip inIt={marks.inIt(r)} /> : null}
    </>
  )
  // Issue 31: from any other member's open row, their record against mine.
  const detailExtra = (r: RankingRow) =>
    r.userId === userId ? null : (
      <p className={styles.detailLink}>
        <Link to={`/${sport}/league/${league.id}/head-to-head?b=${r.userId}`}>
          Head-to-head with {tipperName(r)}
        </Link>
      </p>
    )
  return (
    <section className={styles.stack} aria-label="Ladder">
      <div className={styles.toolbar}>
        <LadderRoundSelect
          id="league-ladder-round"
          rounds={ladderRounds(rounds, league.startRound)}
          value={round}
          onChange={setRound}
        />
      </div>
      {/* Issue 30: while a match of the week is live, my place here if each side wins. */}
      <LeagueLiveStakes sport={sport} league={league} />
      {round !== null ? <WeekWinners honours={honours} round={round} /> : null}
      {remaining && marks ? <StillToPlayFor remaining={remaining} marked={marks.show} /> : null}
      <LadderTable
        sport={sport}
        ladder={ladder}
        userId={userId}
        topHighlight={TOP_LEAGUE_HIGHLIGHT}
        showWeek={round !== null}
        tipsRound={tipsRoundFor(rounds, round)}
        squads={squads}
        caption={`${league.name} ladder`}
        expectedRows={league.numUser}
        rowExtra={rowExtra}
        detailExtra={detailExtra}
      />
    </section>
  )
}
