import { describe, expect, it } from 'vitest'
import { helpViewFor, paragraphsOf, type HelpContent } from './help-data.ts'

const content: HelpContent = {
  faqs: [{ question: 'Free?', answer: 'Yes.' }],
  pages: [
    { section: 'game-rules', title: 'Game rules', body: 'One.\n\nTwo.' },
    { section: 'prizes', title: 'Prizes', body: 'Top prize $10,000.' },
  ],
}

describe('help sections', () => {
  it('shows the FAQ with no section or faq', () => {
    expect(helpViewFor(content, undefined)).toEqual({ kind: 'faq' })
    expect(helpViewFor(content, 'faq')).toEqual({ kind: 'faq' })
  })
  it('shows a published page by its section', () => {
    expect(helpViewFor(content, 'prizes')).toEqual({ kind: 'page', page: content.pages[1] })
  })
  it('names a section that does not exist', () => {
    expect(helpViewFor(content, 'nope')).toEqual({ kind: 'missing', section: 'nope' })
  })
  it('splits a body into paragraphs at blank lines only', () => {
    expect(paragraphsOf('One.\n\n  \nTwo\nstill two.\n\n')).toEqual(['One.', 'Two\nstill two.'])
  })
})
