// A Server-Sent Events reader over fetch, for tests of the push channel through a real listener.

export interface SseEvent {
  id: string | null
  event: string
  data: string
}

export interface SseClient {
  status: number
  /** The body of a refusal (anything but 200). */
  body: string
  events: SseEvent[]
  heartbeats: number
  retry: number | null
  headers: Headers
  /** Resolves when the server ends the stream. */
  ended: Promise<void>
  close(): void
}

export async function openSse(
  base: string,
  sport: string,
  lastEventId?: string | number,
): Promise<SseClient> {
  const abort = new AbortController()
  const res = await fetch(`${base}/api/${sport}/events`, {
    headers: {
      accept: 'text/event-stream',
      ...(lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) }),
    },
    signal: abort.signal,
  })
  const client: SseClient = {
    status: res.status,
    body: '',
    events: [],
    heartbeats: 0,
    retry: null,
    headers: res.headers,
    ended: Promise.resolve(),
    close: () => abort.abort(),
  }
  if (res.status !== 200) {
    client.body = await res.text()
    return client
  }
  const reader = res.body!.getReader()
  const chunks = async function* () {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      yield value
    }
  }
  client.ended = readSse(chunks(), client)
  return client
}

/**
 * Reads a text/event-stream body into `into` (events, heartbeat comments, the retry field) until
 * it ends or is aborted: the fetch body here, a node:http response in e2e/deploy.spec.ts.
 */
export async function readSse(
  body: AsyncIterable<Uint8Array | string>,
  into: Pick<SseClient, 'events' | 'heartbeats' | 'retry'>,
): Promise<void> {
  const decoder = new TextDecoder()
  let buffer = ''
  try {
    for await (const value of body) {
      buffer += typeof value === 'string' ? value : decoder.decode(value, { stream: true })
      // One pass over what arrived (a page may get megabytes at once): cut once at the end.
      let start = 0
      for (let at = buffer.indexOf('\n\n'); at >= 0; at = buffer.indexOf('\n\n', start)) {
        const block = buffer.slice(start, at)
        start = at + 2
        const lines = block.split('\n')
        if (lines.every((l) => l.startsWith(':'))) {
          into.heartbeats++
          continue
        }
        const field = (name: string) =>
          lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2) ?? null
        const retry = field('retry')
        if (retry !== null) into.retry = Number(retry)
        const data = field('data')
        if (data !== null)
          into.events.push({ id: field('id'), event: field('event') ?? 'message', data })
      }
      buffer = buffer.slice(start)
    }
  } catch {
    // Aborted by the test.
  }
}

/** Waits for a condition, polling; throws when it is not met within `ms`. */
export async function eventually(check: () => boolean, ms = 1000): Promise<void> {
  const until = Date.now() + ms
  while (!check()) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms`)
    await new Promise((r) => setTimeout(r, 10))
  }
}
