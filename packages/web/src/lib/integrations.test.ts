import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { reportErrors, taggingScriptSrc, type ErrorReport } from './integrations.ts'

describe('error reporting hook', () => {
  const stops: (() => void)[] = []
  // The errors fired here are the test's own; keep them from counting as uncaught.
  const swallow = (e: Event) => e.preventDefault()
  beforeEach(() => window.addEventListener('error', swallow))
  afterEach(() => {
    stops.splice(0).forEach((s) => s())
    window.removeEventListener('error', swallow)
  })

  const fire = (message: string) =>
    window.dispatchEvent(new ErrorEvent('error', { message, error: new Error(message) }))

  it('does nothing when no endpoint is configured', () => {
    const send = vi.fn()
    stops.push(reportErrors(null, { send, random: () => 0 }))
    fire('boom')
    expect(send).not.toHaveBeenCalled()
  })

  it('sends about one error in ten (sample rate 0.1), the path without the query', () => {
    const send = vi.fn<(url: string, r: ErrorReport) => void>()
    const rolls = [0.05, 0.5, 0.0999, 0.1]
    stops.push(reportErrors('https://errors.example.org/r', { send, random: () => rolls.shift()! }))
    window.history.replaceState(null, '', '/login/callback?code=secret&state=x')
    for (const m of ['one', 'two', 'three', 'four']) fire(m)
    expect(send.mock.calls.map(([, r]) => r.message)).toEqual(['one', 'three'])
    expect(send.mock.calls[0]![0]).toBe('https://errors.example.org/r')
    expect(send.mock.calls[0]![1].page).toBe('/login/callback')
    expect(JSON.stringify(send.mock.calls)).not.toContain('secret')
  })

  it('stops listening when told to', () => {
    const send = vi.fn()
    reportErrors('https://errors.example.org/r', { send, random: () => 0 })()
    fire('after stop')
    expect(send).not.toHaveBeenCalled()
  })
})

describe('tagging script address', () => {
  it('carries the user id and a tag per sport and step', () => {
    const src = new URL(
      taggingScriptSrc('https://tags.example.net/t.js?acct=7', {
        userId: 42,
        sport: 'wbbl',
        step: 'registration',
      }),
    )
    expect(src.origin).toBe('https://tags.example.net')
    expect(src.searchParams.get('acct')).toBe('7')
    expect(src.searchParams.get('uid')).toBe('42')
    expect(src.searchParams.get('tag')).toBe('wbbl-registration')
  })
})
