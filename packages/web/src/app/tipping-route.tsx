import { lazy, Suspense } from 'react'
import TippingPage from '../features/tipping/tipping-page.tsx'
import { retryImport } from '../lib/lazy-retry.ts'
import { useSport } from '../lib/sport.ts'
import { SIDE_COLUMN_QUERY, useMediaQuery } from '../lib/use-media-query.ts'
import { AdvertSlot } from './layouts/advert-slot.tsx'

// Loaded only on a wide screen (decision 035): a phone's first load has no side column to draw.
const TippingSideColumn = lazy(() => retryImport(() => import('./tipping-side-column.tsx')))

/**
 * `/{sport}/tipping`, composed here because it draws on two features and the app's advert slot:
 * the leaderboard advert at the top (spec 2 "Tipping screen"), and on a wide screen (issue 27) a
 * side column with the medium-rectangle advert, the week's leaders, the team ladder and the
 * user's leagues. A phone gets no side column and fetches none of it, nor its code.
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
              <Suspense fallback={null}>
                <TippingSideColumn sport={sport} round={round} />
              </Suspense>
            )
          : undefined
      }
    />
  )
}
