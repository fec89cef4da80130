import { render } from '@testing-library/react'
import { useRef } from 'react'
import { describe, expect, it } from 'vitest'
import { useCurrentInStrip } from './use-current-in-strip.ts'

// jsdom lays nothing out: each element's box is given here, as a 300 px row showing tabs at
// 0-100, 100-200, 200-300 and 300-400 would be measured in a browser.

function Strip({ current }: { current: number }) {
  const ref = useRef<HTMLElement>(null)
  useCurrentInStrip(ref, current)
  return (
    <nav ref={ref} data-testid="row">
      {[0, 1, 2, 3].map((i) => (
        <a key={i} href={`#${i}`} aria-current={i === current ? 'page' : undefined}>
          tab {i}
        </a>
      ))}
    </nav>
  )
}

const box = (left: number, width: number) => ({
  left,
  right: left + width,
  width,
  top: 0,
  bottom: 40,
  height: 40,
  x: left,
  y: 0,
  toJSON: () => ({}),
})

function measured() {
  Object.defineProperty(HTMLElement.prototype, 'getBoundingClientRect', {
    configurable: true,
    value(this: HTMLElement) {
      if (this.tagName === 'NAV') return box(0, 300)
      const i = Number(this.getAttribute('href')?.slice(1))
      const row = this.parentElement!
      return box(i * 100 - row.scrollLeft, 100)
    },
  })
}

describe('useCurrentInStrip', () => {
  it('scrolls the row, and only the row, to a current item out of sight', () => {
    measured()
    const { getByTestId, rerender } = render(<Strip current={0} />)
    const row = getByTestId('row')
    expect(row.scrollLeft).toBe(0)
    rerender(<Strip current={3} />)
    // Centred: the item's left (300) less half the room beside it ((300 - 100) / 2).
    expect(row.scrollLeft).toBe(200)
    expect(window.scrollY).toBe(0)
  })

  it('leaves the row alone when the current item is already in view', () => {
    measured()
    const { getByTestId, rerender } = render(<Strip current={0} />)
    rerender(<Strip current={2} />)
    expect(getByTestId('row').scrollLeft).toBe(0)
  })
})
