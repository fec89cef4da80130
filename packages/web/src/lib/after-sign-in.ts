import { roleForSport, type Sport } from '@tipping/contract/constants'
import { readStored, removeStored, writeStored } from './storage.ts'

// Spec 2 "Guards after sign-in", with the invite rule of spec 4: a saved join link is always
// followed (the visitor asked to join before signing in); a recovered account goes to its leagues;
// a recently registered one follows its saved create or tipping link; everyone else goes to the
// leagues page. Only a signed-out visit to a guarded page saves a link (signed-in-layout.tsx):
// registering or a first single sign-on saves none of its own, so a new account with nowhere
// to go lands on the leagues page like everyone else.

/** How long after registering an account still counts as new. */
export const RECENT_REGISTRATION_MS = 60 * 60 * 1000

const LINKS = {
  joinLink: /^\/(bbl|wbbl)\/leagues\/join\/[A-Za-z0-9]{1,20}$/,
  createLink: /^\/(bbl|wbbl)\/leagues\/create$/,
  tippingLink: /^\/(bbl|wbbl)\/tipping$/,
} as const
export type DeepLink = keyof typeof LINKS

/** Which saved link, if any, a signed-out visit to `path` should leave behind. */
export const deepLinkFor = (path: string): DeepLink | null =>
  (Object.keys(LINKS) as DeepLink[]).find((k) => LINKS[k].test(path)) ?? null

export function rememberDeepLink(path: string): void {
  const kind = deepLinkFor(path)
  if (kind) writeStored(kind, path)
}

/**
 * The invite a signed-out visitor opened, kept to be followed after sign-in (spec 4), if any: the
 * sign-in forms say that signing in will join it.
 */
export const savedInvite = (): string | null => {
  const path = readStored('joinLink')
  return path && LINKS.joinLink.test(path) ? path : null
}

/** What the sign-in forms say while an invite waits (the league joins straight after). */
export const INVITE_NOTICE =
  'You have an invite to a league: log in or create an account and you will join it straight away.'

export interface SignedInUser {
  recovered: boolean
  registeredAt: { date: string }
}

/** Where to go after signing in; saved links are only ever in-app paths of the right shape. */
export function routeAfterSignIn(
  user: SignedInUser,
  sport: Sport,
  now: Date,
  saved: Partial<Record<DeepLink, string | null>>,
): string {
  const valid = (kind: DeepLink) => {
    const path = saved[kind]
    return path && LINKS[kind].test(path) ? path : null
  }
  const join = valid('joinLink')
  if (join) return join
  const leagues = `/${sport}/leagues`
  if (user.recovered) return leagues
  const registered = Date.parse(user.registeredAt.date)
  const recent = Number.isFinite(registered) && now.getTime() - registered < RECENT_REGISTRATION_MS
  if (recent) return valid('createLink') ?? valid('tippingLink') ?? leagues
  return leagues
}

/** Reads and clears the saved links, then decides (spec 2). */
export function takeRouteAfterSignIn(user: SignedInUser, sport: Sport, now = new Date()): string {
  const saved = Object.fromEntries(
    (Object.keys(LINKS) as DeepLink[]).map((k) => [k, readStored(k)]),
  ) as Record<DeepLink, string | null>
  for (const k of Object.keys(LINKS)) removeStored(k)
  return routeAfterSignIn(user, sport, now, saved)
}

/**
 * Spec 2's other guard: a signed-in visit to `/` goes to `/{sport}` when that sport is available
 * (in season, and the account plays it) and the account is not recovered. Null: stay on `/`.
 */
export function homeRedirect(
  user: SignedInUser & { roles: readonly string[] },
  sport: Sport,
  offseason: boolean,
): string | null {
  if (offseason || user.recovered || !user.roles.includes(roleForSport(sport))) return null
  return `/${sport}`
}
