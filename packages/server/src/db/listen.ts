import type { PGlite } from '@electric-sql/pglite'
import pg from 'pg'

/** How the listening connection shows in pg_stat_activity. */
export const LISTENER_NAME = 'tipping-listen'

/** What a listener is told about one channel of the database's notices (NOTIFY). */
export interface NoticeHandlers {
  notice: (payload: string) => void
  /** LISTEN is in place: from now on every notice arrives (first time, or again after `lost`). */
  listening: () => void
  /** The connection is gone or silent: notices may be missed until `listening` again. */
  lost: () => void
}

/** Starts listening to a channel; resolves after the first attempt, with a function to stop. */
export type Listen = (channel: string, handlers: NoticeHandlers) => Promise<() => Promise<void>>

export interface PostgresListenOptions {
  /** A connection that answers no query for this long counts as lost (and is replaced). */
  heartbeatMs?: number
  /** Wait between attempts to connect again. */
  retryMs?: number
}

/**
 * A listening connection of its own, outside the pool (a pooled connection is handed to other
 * queries; LISTEN belongs to one session). It is checked with a query every `heartbeatMs`, so a
 * connection that died without a word (a half-open socket) is noticed within two beats, and it
 * comes back by itself.
 */
export function postgresListen(connectionString: string, opts: PostgresListenOptions = {}): Listen {
  const heartbeatMs = opts.heartbeatMs ?? 5000
  const retryMs = opts.retryMs ?? 1000
  return async (channel, handlers) => {
    let stopped = false
    let current: pg.Client | null = null
    let beat: NodeJS.Timeout | undefined
    let retry: NodeJS.Timeout | undefined

    const drop = (client: pg.Client) => {
      if (current !== client) return
      current = null
      clearInterval(beat)
      handlers.lost()
      client.end().catch(() => {})
      if (!stopped) retry = setTimeout(() => void attempt(), retryMs).unref()
    }

    const attempt = async (): Promise<void> => {
      const client = new pg.Client({
        connectionString,
        keepAlive: true,
        application_name: LISTENER_NAME,
      })
      // Unheard, an 'error' would end the process; here it only means: connect again.
      client.on('error', () => drop(client))
      client.on('end', () => drop(client))
      client.on('notification', (m) => {
        if (m.channel === channel) handlers.notice(m.payload ?? '')
      })
      current = client
      try {
        await client.connect()
        await client.query(`LISTEN ${client.escapeIdentifier(channel)}`)
      } catch {
        drop(client)
        return
      }
      if (stopped || current !== client) {
        await client.end().catch(() => {})
        return
      }
      handlers.listening()
      beat = setInterval(() => {
        let answered = false
        const silent = setTimeout(() => {
          if (!answered) drop(client)
        }, heartbeatMs).unref()
        client.query('SELECT 1').then(
          () => {
            answered = true
            clearTimeout(silent)
          },
          () => drop(client),
        )
      }, heartbeatMs).unref()
    }

    await attempt()
    return async () => {
      stopped = true
      clearTimeout(retry)
      clearInterval(beat)
      const client = current
      current = null
      if (client) await client.end().catch(() => {})
    }
  }
}

/** PGlite is in this process: its notices cannot be missed, so it is never lost. */
export function pgliteListen(pglite: PGlite): Listen {
  return async (channel, handlers) => {
    const stop = await pglite.listen(channel, (payload) => handlers.notice(payload))
    handlers.listening()
    return async () => {
      if (!pglite.closed) await stop()
    }
  }
}
