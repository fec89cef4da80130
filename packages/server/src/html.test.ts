import { describe, expect, it } from 'vitest'
import { escapeHtml } from './html.ts'

describe('escapeHtml', () => {
  it('leaves no character that opens a tag or ends an attribute, and escapes & first', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
    )
    expect(escapeHtml('&amp;')).toBe('&amp;amp;')
    expect(escapeHtml('Sixes 🏏 · plain')).toBe('Sixes 🏏 · plain')
  })
})
