import { useParams } from 'react-router'
import { roleForSport, SPORTS, type Sport } from '@tipping/contract/constants'
export { sportLabel } from '@tipping/contract/constants'
import { readStored, writeStored } from './storage.ts'

export const isSport = (value: string | undefined): value is Sport =>
  SPORTS.includes(value as Sport)

/** The last chosen sport is remembered locally (spec 1); bbl when nothing is stored. */
export const storedSport = (): Sport => {
  const value = readStored('selectedSport') ?? undefined
  return isSport(value) ? value : 'bbl'
}

/**
 * The sport an account's own pages are under: the preferred one if the account plays it (or plays
 * neither, as a visitor), else the one it plays. A password manager's link to the account page
 * cannot say which; the browser may remember a sport the account never registered for.
 */
export const sportOfAccount = (roles: readonly string[], preferred: Sport): Sport =>
  roles.includes(roleForSport(preferred))
    ? preferred
    : (SPORTS.find((s) => roles.includes(roleForSport(s))) ?? preferred)

export const rememberSport = (sport: Sport): void => writeStored('selectedSport', sport)

/**
 * The sport of the route being shown. Only pages under a `/:sport` layout call it, and those
 * layouts show the not-found page for anything but a sport, so a page never sees another value.
 */
export function useSport(): Sport {
  const { sport } = useParams()
  if (!isSport(sport)) throw new Error(`useSport outside a sport's route: ${String(sport)}`)
  return sport
}
