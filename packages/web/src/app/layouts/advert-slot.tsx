import { ADVERT_BREAKPOINT_PX, type Sport } from '@tipping/contract/constants'
import type { Advert } from '@tipping/contract/content'
import { useMatch } from 'react-router'
import { advertFor, useSiteContent } from '../../lib/site-content.tsx'
import { useMediaQuery } from '../../lib/use-media-query.ts'
import styles from './site-parts.module.css'

/** Spec 2: advert images switch between mobile and desktop at 700 px. */
export const ADVERT_DESKTOP_QUERY = `(min-width: ${ADVERT_BREAKPOINT_PX}px)`

/** The image of an advert for a viewport width: desktop from 700 px, mobile below. */
export const advertImageFor = (advert: Advert, viewportWidth: number): string =>
  viewportWidth >= ADVERT_BREAKPOINT_PX ? advert.desktopImage : advert.mobileImage

/** The images' text alternative and the link's name: the advert's own words, or that it is one. */
export const advertAlt = (advert: Advert): string => {
  const said = advert.alt?.trim()
  return said ? `Advertisement: ${said}` : 'Advertisement'
}

/** Slot sizes (IAB): the space is held before the image arrives, so nothing moves. */
export const ADVERT_SIZES = {
  mrec: { desktop: { w: 300, h: 250 }, mobile: { w: 320, h: 100 } },
  leaderboard: { desktop: { w: 728, h: 90 }, mobile: { w: 320, h: 50 } },
} as const

/**
 * An advert slot of a sport (`{sport}/mrecs.json`, loaded with the site content before first
 * paint): the first advert of its type, or nothing at all when there is none.
 */
export function AdvertSlot({ sport, type }: { sport: Sport; type: Advert['type'] }) {
  const desktop = useMediaQuery(ADVERT_DESKTOP_QUERY)
  const advert = advertFor(useSiteContent(), sport, type)
  if (!advert) return null
  const size = ADVERT_SIZES[type][desktop ? 'desktop' : 'mobile']
  const src = desktop ? advert.desktopImage : advert.mobileImage
  const external = advert.url.startsWith('https://')
  return (
    <div
      className={styles.advert}
      style={{ maxWidth: size.w, aspectRatio: `${size.w} / ${size.h}`, marginInline: 'auto' }}
      data-testid={`advert-${type}`}
    >
      <a
        href={advert.url}
        {...(external ? { target: '_blank', rel: 'noopener noreferrer sponsored' } : {})}
      >
        <img src={src} width={size.w} height={size.h} alt={advertAlt(advert)} />
      </a>
    </div>
  )
}

/** Pages that place their own adverts (the tipping screen's is at its top, spec 2), where the
 * shared area under the page would only repeat them. */
export const OWN_ADVERTS_PATH = '/:sport/tipping'

/** The advert area between a page and its footer: a leaderboard, then an mrec. */
export function AdvertArea({ sport }: { sport: Sport }) {
  const content = useSiteContent()
  const ownAdverts = useMatch(OWN_ADVERTS_PATH) !== null
  if (ownAdverts) return null
  if (!advertFor(content, sport, 'leaderboard') && !advertFor(content, sport, 'mrec')) return null
  return (
    <aside className={styles.adverts} aria-label="Advertisements">
      <AdvertSlot sport={sport} type="leaderboard" />
      <AdvertSlot sport={sport} type="mrec" />
    </aside>
  )
}
