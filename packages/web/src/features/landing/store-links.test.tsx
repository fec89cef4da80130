import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { StoreLinks } from './store-links.tsx'

describe('store badges', () => {
  it('draws each configured store as a two-line badge whose link reads as one phrase', () => {
    render(
      <StoreLinks
        appStoreUrl="https://apps.example.com/app/1"
        playStoreUrl="https://play.example.com/app/1"
      />,
    )
    const nav = screen.getByRole('navigation', { name: 'Get the official app' })
    const apple = screen.getByRole<HTMLAnchorElement>('link', { name: 'Download on the App Store' })
    const play = screen.getByRole<HTMLAnchorElement>('link', { name: 'Get it on Google Play' })
    expect(apple.href).toBe('https://apps.example.com/app/1')
    expect(play.href).toBe('https://play.example.com/app/1')
    for (const link of [apple, play]) {
      expect(link.target).toBe('_blank')
      expect(link.rel).toContain('noopener')
      // The glyph is ours and decorative; the words name the link.
      expect(link.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true')
      expect(link.querySelectorAll(':scope > span > span')).toHaveLength(2)
    }
    expect(nav.querySelectorAll('a')).toHaveLength(2)
  })

  it('leaves out a store with no link, and draws nothing with none', () => {
    const { container, rerender } = render(
      <StoreLinks appStoreUrl={null} playStoreUrl="https://play.example.com/app/1" />,
    )
    expect(screen.queryByRole('link', { name: /App Store/ })).toBeNull()
    expect(screen.getByRole('link', { name: 'Get it on Google Play' })).toBeTruthy()
    rerender(<StoreLinks appStoreUrl={null} playStoreUrl={null} />)
    expect(container.innerHTML).toBe('')
  })
})
