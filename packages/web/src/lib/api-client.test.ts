import { afterEach, describe, expect, it, vi } from 'vitest'
import { api, ApiCallError, onUnauthorized } from './api-client.ts'

const respond = (status: number, body: unknown) =>
  vi.fn(() =>
    Promise.resolve(
      new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      }),
    ),
  )

afterEach(() => vi.unstubAllGlobals())

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
