// What the service worker (src/sw.ts) keeps for the offline view, named once for it and the page
// (decision 025). Only these reads are kept; everything else is never cached.

/** The last page the server rendered, served as the app's shell when the network fails. */
export const PAGE_CACHE = 'tipping-pages'
/** The signed-in reads the offline view needs, as last seen: emptied on sign-out. */
export const API_CACHE = 'tipping-api-reads'
/** The published static files (fixture, squads, venues, site content). */
export const STATIC_CACHE = 'tipping-static'
/** Set by the worker on an answer it took from its cache because the network failed. */
export const OFFLINE_COPY_HEADER = 'x-offline-copy'

/**
 * The API reads kept for the offline view: the session check (who is signed in, or the app sends
 * an offline visitor home), a round with the user's picks, and the user's leagues. Never the
 * live channel's `/events` streams, admin reads or anything else.
 */
const OFFLINE_READS = [
  /^\/api\/session$/,
  /^\/api\/(bbl|wbbl)\/predictions\/\d+$/,
  /^\/api\/(bbl|wbbl)\/leagues$/,
]

export const isOfflineApiRead = (pathname: string): boolean =>
  OFFLINE_READS.some((re) => re.test(pathname))

/**
 * Forgets every signed-in read kept on the device (sign-out, or another user signed in): the
 * next user of the browser never sees them, offline or not. The page shell and the public static
 * files hold nothing of the user's and stay.
 */
export async function clearSignedInCaches(): Promise<void> {
  if (typeof caches === 'undefined') return
  await caches.delete(API_CACHE).catch(() => false)
}
