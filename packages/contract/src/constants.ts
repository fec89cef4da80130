// Every game number lives here, once (GAME_RULES.md: "a named constant in one place").

export const SPORTS = ['bbl', 'wbbl'] as const
export type Sport = (typeof SPORTS)[number]

/** GAME_RULES.md: a sport is the women's league when its identifier contains `wbbl`. */
export const isWomensCompetition = (identifier: string): boolean => identifier.includes('wbbl')

export const POINTS_PER_TIP = 1
export const CLEAN_SWEEP_BONUS = 2
export const GOLDEN_WEEK_MULTIPLIER = 2
/** A correct auto-tip counts only while the user has fewer than this many correct non-auto tips. */
export const AUTOTIP_COUNT_LIMIT = 4

export const MARGIN_MIN = 0
export const MARGIN_MAX = 100
export const MARGIN_DEBOUNCE_MS = 500
export const SAVE_CONFIRMATION_MS = 1500

export const LADDER_PAGE_SIZE = 20
export const LEAGUE_LIST_PAGE_SIZE = 10
export const TOP_LEAGUE_HIGHLIGHT = 3
export const TOP_RANKING_HIGHLIGHT = 1

export const REFRESH_INTERVAL_MS = 31_000
/** Spec 2 "Tip row": the strip scrolls by this step and shows arrows past this many tips. */
export const TIP_ROW_SCROLL_PX = 1000
export const TIP_ROW_ARROWS_AFTER = 3
export const COPIED_MS = 3000
export const CONFIRMATION_DELAY_MS = 2000
export const LAZY_RETRY_COUNT = 5
export const LAZY_RETRY_DELAY_MS = 1000
export const PKCE_VERIFIER_LENGTH = 128

export const MOBILE_BREAKPOINT_PX = 640
export const ADVERT_BREAKPOINT_PX = 700
export const MENS_LINK_VISIBLE_FROM = '2025-12-14'
export const PREREGISTRATION_NAME_MIN = 2
export const TOP_PRIZE = '$10,000'
export const SEASON_PROMOTION = '2025-26'

// The game's names, said the same way by the pages, their titles, the mails and shared links.
/** The site's name, where no one sport is meant. */
export const SITE_NAME = 'Big Bash Tipping'
/** A sport's short name as the game shows it: BBL, WBBL. */
export const sportLabel = (sport: Sport): string => sport.toUpperCase()
/** The game a sport's pages and mails belong to: "BBL Tipping". */
export const gameName = (sport: Sport): string => `${sportLabel(sport)} Tipping`

export const PASSWORD_MIN = 8
export const PASSWORD_MAX = 200
export const LEAGUE_NAME_MIN = 3
export const LEAGUE_NAME_MAX = 50
export const LEAGUE_DESCRIPTION_MAX = 200

export const ROLES = ['ROLE_USER_BBL', 'ROLE_USER_WBBL', 'ROLE_ADMIN'] as const
export type Role = (typeof ROLES)[number]
export const roleForSport = (sport: Sport): Role =>
  sport === 'bbl' ? 'ROLE_USER_BBL' : 'ROLE_USER_WBBL'

/** The session cookie's name over plain HTTP (development, tests, the bench). */
export const SESSION_COOKIE = 'tip_session'

/**
 * The session cookie's name, the one place it is decided. A Secure cookie carries the `__Host-`
 * prefix: a browser then keeps it only when it is Secure, has Path=/ and no Domain, so a sibling
 * subdomain or a plain-HTTP page cannot plant or shadow the session (RFC 6265bis 4.1.3.2).
 */
export const sessionCookieName = (secure: boolean): string =>
  secure ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE
