import { afterEach, describe, expect, it, vi } from 'vitest'
import { SERVER_TIME_HEADER } from '@tipping/contract/http'
import {
  adoptPreloadedReads,
  api,
  ApiCallError,
  BUSY_RETRY,
  busyRetryDelay,
  onUnauthorized,
  PRELOAD_FRESH_MS,
} from './api-client.ts'
import { NEGLIGIBLE_MS, serverNow } from './server-clock.ts'

const respond = (status: number, body: unknown) =>
  vi.fn(() =>
    Promise.resolve(
      new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      }),
    ),
  )

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

/** A 503 in the envelope, as the server sends when it is busy (Retry-After given or not). */
const busy = (retryAfter: string | null) =>
  new Response(
    JSON.stringify({
      errors: [{ code: 'SERVICE_UNAVAILABLE', message: 'The server is busy', param: null }],
    }),
    {
      status: 503,
      headers: {
        'content-type': 'application/json',
        ...(retryAfter === null ? {} : { 'retry-after': retryAfter }),
      },
    },
  )
const saved = () =>
  new Response(JSON.stringify({ success: { saved: true } }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  })

/** Sends answered in turn by `answers`, each send's time kept (fake clock). */
function answering(answers: (() => Response)[]) {
  const sentAt: number[] = []
  const fetchMock = vi.fn(() => {
    sentAt.push(Date.now())
    const next = answers.shift()
    if (!next) throw new Error('more sends than answers')
    return Promise.resolve(next())
  })
  vi.stubGlobal('fetch', fetchMock)
  return { fetchMock, sentAt }
}

describe('api client (spec 7, 8)', () => {
  it('unwraps the success envelope and sends credentials', async () => {
    const fetchMock = respond(200, { success: { ok: 1 } })
    vi.stubGlobal('fetch', fetchMock)
    await expect(api('bbl/user')).resolves.toEqual({ ok: 1 })
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/bbl/user',
      expect.objectContaining({ credentials: 'include' }),
    )
  })

  it("surfaces the first error's message, code and param", async () => {
    vi.stubGlobal(
      'fetch',
      respond(409, {
        errors: [
          { code: 'EMAIL_TAKEN', message: 'taken', param: 'email' },
          { code: 'X', message: 'y', param: null },
        ],
      }),
    )
    const err = await api('auth/register', { method: 'POST', body: {} }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiCallError)
    expect(err).toMatchObject({
      message: 'taken',
      code: 'EMAIL_TAKEN',
      param: 'email',
      status: 409,
    })
  })

  it('reports a network failure as "Network error" with code 0', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    )
    await expect(api('bbl/user')).rejects.toMatchObject({ message: 'Network error', code: 0 })
  })

  it('treats a response without a success wrapper as a failure', async () => {
    vi.stubGlobal('fetch', respond(200, { data: 1 }))
    await expect(api('bbl/user')).rejects.toBeInstanceOf(ApiCallError)
  })

  it('tells the 401 listener, except for sign-in calls', async () => {
    const listener = vi.fn()
    const off = onUnauthorized(listener)
    vi.stubGlobal(
      'fetch',
      respond(401, {
        errors: [
          { code: 'UNAUTHORIZED', message: 'Session expired. Please log in again.', param: null },
        ],
      }),
    )
    await api('bbl/predictions/1').catch(() => undefined)
    expect(listener).toHaveBeenCalledTimes(1)
    await api('auth/login', { method: 'POST', body: {}, skipUnauthorized: true }).catch(
      () => undefined,
    )
    expect(listener).toHaveBeenCalledTimes(1)
    off()
  })

  it('times out with the specified message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_, reject) =>
            init.signal?.addEventListener('abort', () =>
              reject(new DOMException('aborted', 'AbortError')),
            ),
          ),
      ),
    )
    await expect(api('bbl/user', { timeoutMs: 20 })).rejects.toMatchObject({
      message: 'timeout of 20 ms exceeded',
    })
  })
})

describe('a busy answer is sent again after the wait it asks for (decision 046)', () => {
  it('waits Retry-After (stretched by at most half) and then succeeds, for a tip save too', async () => {
    vi.useFakeTimers()
    const { fetchMock, sentAt } = answering([() => busy('1'), () => busy('2'), saved])
    const result = api('bbl/tips', { method: 'POST', body: { match: 1, squad: 2 } })
    await vi.runAllTimersAsync()
    await expect(result).resolves.toEqual({ saved: true })
    expect(fetchMock).toHaveBeenCalledTimes(3)
    const [first, second, third] = sentAt as [number, number, number]
    expect(second - first).toBeGreaterThanOrEqual(1000)
    expect(second - first).toBeLessThanOrEqual(1500)
    expect(third - second).toBeGreaterThanOrEqual(2000)
    expect(third - second).toBeLessThanOrEqual(3000)
    // The same request each time: method and body are sent again unchanged.
    const calls = fetchMock.mock.calls as unknown as [string, RequestInit][]
    expect(calls.map(([url, init]) => [url, init.method, init.body])).toEqual(
      Array.from({ length: 3 }, () => ['/api/bbl/tips', 'POST', '{"match":1,"squad":2}']),
    )
  })

  it("gives up after three sends and shows the server's message", async () => {
    vi.useFakeTimers()
    const { fetchMock } = answering([() => busy('1'), () => busy('1'), () => busy('1'), saved])
    const result = api('bbl/predictions/1').catch((e: unknown) => e)
    await vi.runAllTimersAsync()
    expect(await result).toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: 'The server is busy',
    })
    expect(fetchMock).toHaveBeenCalledTimes(BUSY_RETRY.tries)
  })

  it.each([
    ['no Retry-After', busy(null)],
    ['a wait over five seconds', busy('30')],
    ['an HTTP date', busy('Wed, 21 Oct 2026 07:28:00 GMT')],
    [
      'a rate limit (429)',
      new Response(
        JSON.stringify({ errors: [{ code: 'RATE_LIMITED', message: 'slow', param: null }] }),
        {
          status: 429,
          headers: { 'retry-after': '1' },
        },
      ),
    ],
  ])('does not send again by itself on %s', async (_, answer) => {
    const { fetchMock } = answering([() => answer, saved])
    await expect(api('auth/login', { method: 'POST', body: {} })).rejects.toBeInstanceOf(
      ApiCallError,
    )
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('stretches each wait by a random share of at most half', () => {
    expect(busyRetryDelay(busy('2'), () => 0)).toBe(2000)
    expect(busyRetryDelay(busy('2'), () => 0.999)).toBeCloseTo(2999, 0)
    expect(busyRetryDelay(busy('0'), () => 0.5)).toBe(0)
    expect(busyRetryDelay(saved())).toBeNull()
  })
})

/** The page's HTML asked for these reads (`<link rel="preload" as="fetch">`). */
const preloading = (...hrefs: string[]) => {
  const links = hrefs.map((href) => {
    const link = document.createElement('link')
    link.setAttribute('rel', 'preload')
    link.setAttribute('as', 'fetch')
    link.setAttribute('href', href)
    document.head.append(link)
    return link
  })
  return () => links.forEach((l) => l.remove())
}

describe("the server's clock from the answers (decisions 047, 048)", () => {
  const stamped = (aheadMs: number) => () =>
    new Response(JSON.stringify({ success: { ok: 1 } }), {
      status: 200,
      headers: {
        'content-type': 'application/json',
        [SERVER_TIME_HEADER]: `${Date.now() + aheadMs}`,
      },
    })

  it('takes no reading from an answer the page preloaded, and reads the next one', async () => {
    const unlink = preloading('/api/bbl/predictions/5')
    try {
      const { fetchMock: fetched } = answering([stamped(60_000), stamped(60_000)])
      adoptPreloadedReads()
      expect(fetched).toHaveBeenCalledTimes(1)
      // The preloaded answer was stamped before this send: no reading.
      await api('bbl/predictions/5')
      expect(fetched).toHaveBeenCalledTimes(1)
      expect(Math.abs(serverNow() - Date.now())).toBeLessThan(NEGLIGIBLE_MS)
      // A preload answers one read: the same read sent again goes out, and is the server's now.
      await api('bbl/predictions/5')
      expect(fetched).toHaveBeenCalledTimes(2)
      expect(serverNow() - Date.now()).toBeGreaterThan(59_000)
    } finally {
      unlink()
    }
  })
})

describe('the reads the page preloaded (decision 048)', () => {
  const week = (label: string) => () =>
    new Response(JSON.stringify({ success: { label } }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    })

  it('are not handed out after a write: the read goes to the server', async () => {
    // A player shown "not in this game" joins it, then the page reads its week.
    const unlink = preloading('/api/bbl/predictions/5')
    try {
      const { fetchMock: fetched } = answering([
        week('before joining'),
        week('joined'),
        week('after joining'),
      ])
      adoptPreloadedReads()
      await api('bbl/register', { method: 'POST', body: {} })
      await expect(api('bbl/predictions/5')).resolves.toEqual({ label: 'after joining' })
      expect(fetched).toHaveBeenCalledTimes(3)
    } finally {
      unlink()
    }
  })

  it('are not handed out once stale', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const unlink = preloading('/api/bbl/predictions/5')
    try {
      const { fetchMock: fetched } = answering([week('at load'), week('now')])
      adoptPreloadedReads()
      vi.setSystemTime(Date.now() + PRELOAD_FRESH_MS + 1)
      await expect(api('bbl/predictions/5')).resolves.toEqual({ label: 'now' })
      expect(fetched).toHaveBeenCalledTimes(2)
    } finally {
      unlink()
    }
  })
})
