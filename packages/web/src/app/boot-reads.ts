import type { SessionResponse } from '@tipping/contract/auth'
import { fetchSessionUser } from '../features/auth/auth-api.ts'
import { adoptPreloadedReads } from '../lib/api-client.ts'
import { prefetchSiteContent } from '../lib/site-content.tsx'

// The reads every page waits for before its first paint (the site content and the session
// check), started as soon as the main script runs: otherwise they wait for the router to load the
// page's own code first, and a phone pays for the two one after the other.

let session: Promise<SessionResponse> | null = null

export function startBootReads(): void {
  // The API reads the page's HTML preloaded (the session check among them), taken at once.
  adoptPreloadedReads()
  session = fetchSessionUser()
  // Whoever takes it handles a failure; until then a rejection is not an unhandled one.
  session.catch(() => undefined)
  prefetchSiteContent()
}

/** The session check started at boot; once (later checks fetch afresh). */
export function takeBootSession(): Promise<SessionResponse> | null {
  const taken = session
  session = null
  return taken
}
