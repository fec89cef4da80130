import type { Sport } from '@tipping/contract/constants'
import type { RoundNumber } from '@tipping/contract/ids'
import { SideColumn, WeekLeadersCard, YourLeaguesCard } from '../features/leagues/side-cards.tsx'
import { TeamLadderCard } from '../features/leagues/team-ladder-card.tsx'
import { AdvertSlot } from './layouts/advert-slot.tsx'

/**
 * The tipping page's side column on a wide screen (issue 27): the medium-rectangle advert, the
 * week's leaders, the team ladder and the user's leagues. Its own module, loaded only when the
 * screen is wide enough to show it, so a phone neither downloads nor evaluates it (decision 035).
 */
export default function TippingSideColumn({
  sport,
  round,
}: {
  sport: Sport
  round: RoundNumber | null
}) {
  return (
    <SideColumn>
      <AdvertSlot sport={sport} type="mrec" />
      <WeekLeadersCard sport={sport} round={round} />
      <TeamLadderCard sport={sport} />
      {/* Last: the one card whose length is not known before it loads. */}
      <YourLeaguesCard sport={sport} />
    </SideColumn>
  )
}
