import type { Sport } from '@tipping/contract/constants'

export type ShareSection = 'general' | 'league'

/** Spec 7 "Sharing": {origin}/share/{sport}/{section}/{base64 of JSON with a timestamp token (the
 * last 4 digits of the current time) and, for a league, its id}. */
export function shareUrl(
  origin: string,
  sport: Sport,
  section: ShareSection,
  now: number,
  leagueId?: number,
): string {
  const payload = { t: String(now).slice(-4), ...(leagueId ? { league_id: leagueId } : {}) }
  // Base64 may hold '/', '+' and '=': escaped so the token stays one path segment.
  return `${origin}/share/${sport}/${section}/${encodeURIComponent(btoa(JSON.stringify(payload)))}`
}

/** Reads a share token back; null when it is not one of ours. */
export function readShareToken(token: string): { t: string; league_id?: number } | null {
  try {
    const value: unknown = JSON.parse(atob(token))
    if (typeof value !== 'object' || value === null) return null
    const { t, league_id } = value as { t?: unknown; league_id?: unknown }
    if (typeof t !== 'string') return null
    return typeof league_id === 'number' && Number.isInteger(league_id) && league_id > 0
      ? { t, league_id }
      : { t }
  } catch {
    return null
  }
}

/** The social network's share dialog and the short-post network's compose window. */
export const facebookShare = (url: string) =>
  `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}`
export const xShare = (text: string, url: string) =>
  `https://twitter.com/intent/tweet?text=${encodeURIComponent(text)}&url=${encodeURIComponent(url)}`
