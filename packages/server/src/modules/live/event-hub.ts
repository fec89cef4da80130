import type { ServerResponse } from 'node:http'
import type { Listen } from '../../db/listen.ts'
import type { Database } from '../../db/schema.ts'
import * as q from './queries.ts'

/** The database's channel for new events (migration 2026-11-25T0400-live-state). */
export const LIVE_EVENTS = 'live_events'

export interface EventHubOptions {
  /** Every process's commits, announced by the database; absent: the table is polled. */
  listen?: Listen | undefined
  /** One comment line to every connection this often, so idle proxies keep them open. */
  heartbeatMs: number
  /** Connections past this many are refused (503) by the route. */
  maxConnections: number
  /**
   * A page still holding more than this many unsent bytes at a heartbeat is dropped (it resumes
   * later); one that passes `burstBytes` at any write is dropped at once.
   */
  maxBufferedBytes?: number
  burstBytes?: number
  /** How often the table is read for new events when there is no listener. */
  pollMs?: number
  /** Events kept this long for resumption, pruned every `pruneEveryMs`. */
  retentionMs?: number
  pruneEveryMs?: number
  /** Recent events kept encoded in memory, so most resumptions cost no query. */
  recent?: number
  /**
   * Told of each event, whichever process raised it, before any page is: a result makes this
   * process's cached reads of the scores stale, and a page that refetches on the event must not
   * be answered from them.
   */
  onEvent?: (event: { type: string; sport: string }) => void
  now: () => Date
}

/** One open page. Kept small: a scale target is 100,000 of these on one process. */
interface Connection {
  res: ServerResponse
  sport: string
  /** The highest event id this page already has: nothing at or below it is written again. */
  after: number
}

interface Encoded {
  id: number
  sport: string
  bytes: Buffer
}

const HEARTBEAT = Buffer.from(':\n\n')
/** Resuming from further back than this many events costs more than a fresh load: reset. */
const CATCH_UP_LIMIT = 500
/** The reset event asks pages to spread their refetches over this long (no thundering herd). */
export const RESET_SPREAD_MS = 10_000

const encode = (id: number, type: string, payload: unknown) =>
  Buffer.from(`id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(payload)}\n\n`)

const resetBytes = (id: number) => encode(id, 'reset', { spreadMs: RESET_SPREAD_MS })

/**
 * The push channel's side in one API process (docs/decisions/015-live-push.md): it follows the
 * events table through the database's notices, encodes each event once and writes the same bytes
 * to every page of that sport; one heartbeat timer serves all pages; a page that does not read is
 * dropped rather than buffered without bound.
 */
export class EventHub {
  private readonly pages = new Map<string, Set<Connection>>()
  private open = 0
  /** The highest event id written to pages: events arrive in commit order, which is id order. */
  private lastId = 0
  /** Every event after `recentFloor` is in `recentEvents`, oldest first. */
  private recentEvents: Encoded[] = []
  private recentFloor = 0
  /** Notices and catch-ups run one after another, so pages get events in order. */
  private chain: Promise<void> = Promise.resolve()
  private catchUpQueued = false
  private timers: NodeJS.Timeout[] = []
  private stopListening: (() => Promise<void>) | null = null
  private closed = false
  private readonly maxBuffered: number
  private readonly burst: number
  private readonly recentMax: number

  constructor(
    private readonly db: Database,
    private readonly opts: EventHubOptions,
  ) {
    this.maxBuffered = opts.maxBufferedBytes ?? 64 * 1024
    this.burst = opts.burstBytes ?? 1024 * 1024
    this.recentMax = opts.recent ?? 1000
  }

  async start(): Promise<void> {
    const { newest } = await q.eventIdRange(this.db)
    this.lastId = newest ?? 0
    this.recentFloor = this.lastId
    if (this.opts.listen) {
      this.stopListening = await this.opts.listen(LIVE_EVENTS, {
        notice: (text) => this.onNotice(text),
        // Listening again after a drop: what was announced meanwhile is read from the table.
        listening: () => this.catchUp(),
        lost: () => {},
      })
    } else {
      this.every(this.opts.pollMs ?? 1000, () => this.catchUp())
    }
    this.every(this.opts.heartbeatMs, () => this.heartbeat())
    const retention = this.opts.retentionMs ?? 24 * 3_600_000
    this.every(this.opts.pruneEveryMs ?? 600_000, () => {
      q.pruneEvents(this.db, new Date(this.opts.now().getTime() - retention)).catch(() => {})
    })
  }

  /** Pages open on this process. */
  get connections(): number {
    return this.open
  }

  get full(): boolean {
    return this.open >= this.opts.maxConnections
  }

  /** Reads the table now (no listener: an event this process just committed goes out at once). */
  poke(): void {
    if (!this.opts.listen) this.catchUp()
  }

  /**
   * Adds a page whose response head is written. With `lastEventId`, the events it missed go first:
   * from memory when recent, else from the table, else a `reset` (too far back, or an id this
   * database never issued: a restored backup).
   */
  async attach(res: ServerResponse, sport: string, lastEventId: number | null): Promise<void> {
    this.open++
    const conn: Connection = { res, sport, after: lastEventId ?? this.lastId }
    res.on('close', () => {
      this.open--
      this.pages.get(sport)?.delete(conn)
    })
    let reset = false
    if (lastEventId !== null && lastEventId > this.lastId) {
      // Another process may have written it a moment before this one hears of it: ask the table.
      const { newest } = await q.eventIdRange(this.db)
      reset = lastEventId > (newest ?? 0)
    }
    while (!reset && conn.after < this.recentFloor && !res.destroyed && !this.closed) {
      reset = !(await this.replayFromTable(conn))
    }
    if (this.closed) res.end()
    if (res.destroyed || this.closed) return
    // From here to the add nothing waits: no event can slip between the replay and the live feed.
    if (reset) {
      conn.after = this.lastId
      if (!this.write(conn, resetBytes(this.lastId))) return
    } else {
      for (const e of this.recentEvents) {
        if (e.id > conn.after && e.sport === sport && !this.write(conn, e.bytes)) return
      }
      conn.after = Math.max(conn.after, this.lastId)
    }
    let set = this.pages.get(sport)
    if (!set) this.pages.set(sport, (set = new Set()))
    set.add(conn)
  }

  async close(): Promise<void> {
    this.closed = true
    for (const t of this.timers) clearInterval(t)
    this.timers = []
    await this.stopListening?.()
    for (const set of this.pages.values()) for (const conn of set) conn.res.end()
    this.pages.clear()
    await this.chain
  }

  /**
   * Writes the events older than the memory holds from the table; false when they are gone (or
   * too many: a fresh load costs less), and the page needs a reset.
   */
  private async replayFromTable(conn: Connection): Promise<boolean> {
    const { oldest } = await q.eventIdRange(this.db)
    if (oldest === null || conn.after < oldest - 1) return false
    const upto = this.recentFloor
    const missed = await q.eventsAfter(this.db, conn.after, {
      sport: conn.sport,
      upto,
      limit: CATCH_UP_LIMIT + 1,
    })
    if (missed.length > CATCH_UP_LIMIT) return false
    for (const e of missed) if (!this.write(conn, encode(e.id, e.type, e.payload))) return true
    conn.after = Math.max(conn.after, upto)
    return true
  }

  /**
   * Writes, or drops a page that has stopped reading (its 'close' detaches it); false then. Bytes
   * written in one turn of the event loop count as unsent until the socket reports them flushed,
   * so a burst is judged by `burst`, and the stricter `maxBuffered` only at a heartbeat, long after
   * a reading page has taken what it was sent.
   */
  private write(conn: Connection, bytes: Buffer, limit = this.burst): boolean {
    if (conn.res.destroyed) return false
    if (conn.res.writableLength > limit) {
      conn.res.destroy()
      return false
    }
    conn.res.write(bytes)
    return true
  }

  private heartbeat(): void {
    for (const set of this.pages.values())
      for (const conn of set) this.write(conn, HEARTBEAT, this.maxBuffered)
  }

  private onNotice(text: string): void {
    let notice: { id: number; sport: string; type?: string; payload?: unknown }
    try {
      notice = JSON.parse(text) as typeof notice
    } catch {
      return
    }
    const { id, sport, type } = notice
    this.enqueue(async () => {
      if (id <= this.lastId) return
      if (type !== undefined && 'payload' in notice) {
        this.broadcast({ id, sport, type, payload: notice.payload })
        return
      }
      // Too big for a notice: the event is read from the table.
      const row = await q.eventById(this.db, id)
      if (row) this.broadcast(row)
    })
  }

  /** Reads every event after the last one written (one catch-up queued at a time). */
  private catchUp(): void {
    if (this.catchUpQueued || this.closed) return
    this.catchUpQueued = true
    this.enqueue(async () => {
      this.catchUpQueued = false
      for (;;) {
        const rows = await q.eventsAfter(this.db, this.lastId, { limit: CATCH_UP_LIMIT })
        for (const r of rows) this.broadcast(r)
        if (rows.length < CATCH_UP_LIMIT) return
      }
    })
  }

  private enqueue(task: () => Promise<void>): void {
    // A failed read (the database away a moment) loses nothing: the next catch-up reads it again.
    this.chain = this.chain.then(task).catch(() => {})
  }

  private broadcast(e: q.EventRow): void {
    if (e.id <= this.lastId || this.closed) return
    this.lastId = e.id
    this.opts.onEvent?.({ type: e.type, sport: e.sport })
    const encoded: Encoded = { id: e.id, sport: e.sport, bytes: encode(e.id, e.type, e.payload) }
    this.recentEvents.push(encoded)
    if (this.recentEvents.length > this.recentMax) {
      const dropped = this.recentEvents.splice(0, this.recentEvents.length - this.recentMax)
      this.recentFloor = dropped[dropped.length - 1]!.id
    }
    const set = this.pages.get(e.sport)
    if (!set) return
    for (const conn of set) if (conn.after < e.id) this.write(conn, encoded.bytes)
  }

  private every(ms: number, task: () => void): void {
    this.timers.push(setInterval(task, ms).unref())
  }
}
