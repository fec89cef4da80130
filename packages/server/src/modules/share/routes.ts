import fs from 'node:fs'
import { z } from 'zod'
import { gameName, SITE_NAME, SPORTS, type Sport } from '@tipping/contract/constants'
import type { Database } from '../../db/schema.ts'
import type { App } from '../../http/types.ts'
import { publicLeagueName } from './queries.ts'
import { renderSharePage } from './page.ts'

const paramsSchema = z.object({
  sport: z.string(),
  section: z.string(),
  token: z.string().max(400),
})

/** The share token: base64 of JSON with a timestamp token and, for a league, its id (spec 7). */
function leagueIdOf(token: string): number | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64').toString('utf8'))
    const id = (value as { league_id?: unknown } | null)?.league_id
    return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : null
  } catch {
    return null
  }
}

/**
 * `GET /share/{sport}/{section}/{token}`: a page with Open Graph and card metadata (title,
 * description, image) that sends people on into the app; `GET /share-card.png` is its image.
 */
export function shareRoutes(
  app: App,
  deps: {
    db: Database
    /** The configured origin (appOriginOf), never the request's Host or X-Forwarded-Host. */
    appOrigin: string
    shareCardPath: string
  },
): void {
  app.get(
    '/share/:sport/:section/:token',
    { config: { policy: 'visitor' }, schema: { hide: true, params: paramsSchema } },
    async (request, reply) => {
      const { sport, section, token } = request.params
      const origin = deps.appOrigin.replace(/\/+$/, '')
      const known = (SPORTS as readonly string[]).includes(sport)
      const name = known ? sport.toUpperCase() : 'Big Bash'
      const game = known ? gameName(sport as Sport) : SITE_NAME
      const leagueId = known && section === 'league' ? leagueIdOf(token) : null
      const leagueName = leagueId ? await publicLeagueName(deps.db, sport, leagueId) : null
      const page = renderSharePage({
        title: leagueName ? `${leagueName} · ${game}` : game,
        description: leagueId
          ? `Follow the ladder of ${leagueName ?? 'this league'} and tip every ${name} match, free.`
          : `Tip the winner of every ${name} match, call the sixes and beat your mates. Free to play.`,
        image: `${origin}/share-card.png`,
        url: `${origin}${request.url}`,
        target: !known ? '/' : leagueId ? `/${sport}/league/${leagueId}/ladder` : `/${sport}`,
      })
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page)
    },
  )

  app.get(
    '/share-card.png',
    { config: { policy: 'visitor' }, schema: { hide: true } },
    async (_request, reply) => {
      const png = await fs.promises.readFile(deps.shareCardPath)
      return reply.type('image/png').header('cache-control', 'public, max-age=86400').send(png)
    },
  )
}
