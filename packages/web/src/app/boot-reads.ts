import type { UserResponse } from '@tipping/contract/auth'
import type { Sport } from '@tipping/contract/constants'
import { fetchSessionUser } from '../features/auth/auth-api.ts'
import { prefetchSiteContent } from '../lib/site-content.tsx'
import { storedSport } from '../lib/sport.ts'

// The reads every page waits for before its first paint (the site content and the session
// check), started as soon as the main script runs: otherwise they wait for the router to load the
// page's own code first, and a phone pays for the two one after the other.

let session: { sport: Sport; answer: Promise<UserResponse> } | null = null

export function startBootReads(): void {
  const sport = storedSport()
  session = { sport, answer: fetchSessionUser(sport) }
  // Whoever takes it handles a failure; until then a rejection is not an unhandled one.
  session.answer.catch(() => undefined)
  prefetchSiteContent()
}

/** The session check started at boot, if it was for this sport; once (later checks fetch afresh). */
export function takeBootSession(sport: Sport): Promise<UserResponse> | null {
  const taken = session?.sport === sport ? session.answer : null
  session = null
  return taken
}
