import { describe, expect, it } from 'vitest'
import { readShareToken, shareUrl } from './share.ts'

describe('share links (spec 7)', () => {
  it('encodes the timestamp token and league id as base64 JSON under share/{sport}/{section}', () => {
    const url = shareUrl('https://tips.example', 'wbbl', 'league', 1_700_000_012_345, 42)
    const m = /^https:\/\/tips\.example\/share\/wbbl\/league\/(.+)$/.exec(url)
    expect(m).not.toBeNull()
    const token = decodeURIComponent(m![1]!)
    expect(JSON.parse(atob(token))).toEqual({ t: '2345', league_id: 42 })
    expect(readShareToken(token)).toEqual({ t: '2345', league_id: 42 })
  })
  it('escapes the token so it stays one path segment', () => {
    const url = shareUrl('', 'bbl', 'league', 10_000, 7)
    expect(url.split('/')).toHaveLength(5)
    expect(url).not.toContain('=')
  })

  it('leaves the league out of a general share and refuses junk tokens', () => {
    const token = decodeURIComponent(shareUrl('', 'bbl', 'general', 9876).split('/').pop()!)
    expect(readShareToken(token)).toEqual({ t: '9876' })
    expect(readShareToken('not base64!')).toBeNull()
    expect(readShareToken(btoa('{"league_id":"x"}'))).toBeNull()
  })
})
