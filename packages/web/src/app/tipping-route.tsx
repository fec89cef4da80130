import {
  SIDE_COLUMN_QUERY,
  SideColumn,
  WeekLeadersCard,
  YourLeaguesCard,
} from '../features/leagues/side-cards.tsx'
import { TeamLadderCard } from '../features/leagues/team-ladder-card.tsx'
import TippingPage from '../features/tipping/tipping-page.tsx'
import { useSport } from '../lib/sport.ts'
import { useMediaQuery } from '../lib/use-media-query.ts'
import { AdvertSlot } from './layouts/advert-slot.tsx'

/**
 * `/{sport}/tipping`, composed here because it draws on two features and the app's advert slot:
 * the leaderboard advert at the top (spec 2 "Tipping screen"), and on a wide screen (issue 27) a
 * side column with the medium-rectangle advert, the week's leaders, the team ladder and the
 * user's leagues. A phone gets no side column and fetches none of it.
 */
export default function TippingRoute() {
  const sport = useSport()
  const wide = useMediaQuery(SIDE_COLUMN_QUERY)
  return (
    <TippingPage
      // Another sport is another page: its round and the picks being edited start afresh.
      key={sport}
      advert={<AdvertSlot sport={sport} type="leaderboard" />}
      aside={
        wide
          ? (round) => (
              <SideColumn>
                <AdvertSlot sport={sport} type="mrec" />
                <WeekLeadersCard sport={sport} round={round} />
                <TeamLadderCard sport={sport} />
                {/* Last: the one card whose length is not known before it loads. */}
                <YourLeaguesCard sport={sport} />
              </SideColumn>
            )
          : undefined
      }
    />
  )
}
