import type { Clock } from '../../clock.ts'
import type { Config } from '../../config.ts'
import type { Listen } from '../../db/listen.ts'
import type { Database } from '../../db/schema.ts'
import type { App } from '../../http/types.ts'
import { DemoFeed, demoFeedEnabled } from './demo-feed.ts'
import { EventHub } from './event-hub.ts'
import { liveRoutes } from './routes.ts'
import { LiveService } from './service.ts'

/**
 * Live scores and the push channel (docs/decisions/015-live-push.md): the hub follows the events
 * of every process through the database's notices (`listen`), or reads the table every second
 * without them; open pages are ended when the app closes, so closing never waits on them. A
 * result heard from any process empties the caches `onResult` names before pages hear of it, so
 * their refetch reads the new scores version. The demo's feed plays in this process
 * (demo-feed.ts) and stops, between balls, when the app closes.
 */
export async function registerLive(
  app: App,
  deps: {
    config: Config
    db: Database
    clock: Clock
    listen?: Listen | undefined
    /** A result was set or corrected by any process: forget cached reads of the scores. */
    onResult?: () => void
  },
): Promise<void> {
  const { config, db, clock } = deps
  const hub = new EventHub(db, {
    listen: deps.listen,
    heartbeatMs: config.SSE_HEARTBEAT_MS,
    maxConnections: config.SSE_MAX_CONNECTIONS,
    now: () => clock.now(),
    onEvent: (e) => {
      if (e.type === 'result') deps.onResult?.()
    },
  })
  await hub.start()
  app.addHook('preClose', () => hub.close())
  const live = new LiveService(db, clock, () => hub.poke())
  liveRoutes(app, { live, hub })
  if (demoFeedEnabled(config)) {
    const feed = new DemoFeed({
      db,
      live,
      clock,
      dataDir: config.DATA_DIR,
      ballMs: config.DEMO_LIVE_FEED_BALL_MS,
      log: app.log,
    })
    feed.start()
    app.addHook('preClose', () => feed.stop())
  }
}
