import { act, render } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useMediaQuery } from './use-media-query.ts'

/** A window whose query answers can be changed, counting what the hook asks of it. */
function fakeWindow(initial: boolean) {
  const state = { matches: initial, made: 0, added: 0, removed: 0 }
  const listeners = new Set<() => void>()
  vi.stubGlobal('matchMedia', () => {
    state.made += 1
    return {
      get matches() {
        return state.matches
      },
      addEventListener: (_: string, f: () => void) => {
        state.added += 1
        listeners.add(f)
      },
      removeEventListener: (_: string, f: () => void) => {
        state.removed += 1
        listeners.delete(f)
      },
    }
  })
  const change = (matches: boolean) => {
    state.matches = matches
    for (const f of listeners) f()
  }
  return { state, change }
}

let rerender: () => void = () => undefined
function Probe({ query }: { query: string }) {
  const [, setN] = useState(0)
  rerender = () => setN((n) => n + 1)
  return <p>{useMediaQuery(query) ? 'yes' : 'no'}</p>
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('useMediaQuery', () => {
  it('follows the query as the window changes', () => {
    const win = fakeWindow(false)
    const { container } = render(<Probe query="(max-width: 639px)" />)
    expect(container.textContent).toBe('no')
    act(() => win.change(true))
    expect(container.textContent).toBe('yes')
  })

  it('asks the window once and keeps one listener across renders', () => {
    const win = fakeWindow(true)
    const { unmount } = render(<Probe query="(max-width: 639px)" />)
    for (let i = 0; i < 5; i++) act(() => rerender())
    expect(win.state.made).toBe(1)
    expect(win.state.added).toBe(1)
    expect(win.state.removed).toBe(0)
    unmount()
    expect(win.state.removed).toBe(1)
  })

  it('asks again when the query itself changes', () => {
    const win = fakeWindow(false)
    const { rerender: again } = render(<Probe query="(max-width: 639px)" />)
    again(<Probe query="(min-width: 1024px)" />)
    expect(win.state.made).toBe(2)
    expect(win.state.added - win.state.removed).toBe(1)
  })
})
