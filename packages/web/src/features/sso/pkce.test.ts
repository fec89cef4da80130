import { describe, expect, it } from 'vitest'
import {
  base64UrlEncode,
  createCodeVerifier,
  randomString,
  randomToken,
  s256Challenge,
  VERIFIER_ALPHABET,
} from './pkce.ts'

describe('PKCE helpers', () => {
  it('draws a 128-character verifier from letters, digits and -._~ only', () => {
    expect(VERIFIER_ALPHABET).toHaveLength(66)
    for (let i = 0; i < 50; i++) {
      const v = createCodeVerifier()
      expect(v).toHaveLength(128)
      expect(v).toMatch(/^[A-Za-z0-9\-._~]{128}$/)
    }
  })

  it('uses the whole alphabet, with no character favoured', () => {
    const sample = randomString(66 * 400)
    const counts = new Map<string, number>()
    for (const c of sample) counts.set(c, (counts.get(c) ?? 0) + 1)
    expect(counts.size).toBe(66)
    // 400 expected each; a biased draw (byte % 66) would give the first 58 about 17% more.
    for (const n of counts.values()) expect(n).toBeGreaterThan(280)
    for (const n of counts.values()) expect(n).toBeLessThan(520)
  })

  it('gives a different verifier, state and nonce every time', () => {
    expect(new Set(Array.from({ length: 20 }, createCodeVerifier)).size).toBe(20)
    expect(new Set(Array.from({ length: 20 }, randomToken)).size).toBe(20)
    expect(randomToken()).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it('computes the S256 challenge of RFC 7636 appendix B', async () => {
    // RFC 7636 appendix B: the verifier from the octets given there, and its challenge.
    const octets = new Uint8Array([
      116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77,
      105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
    ])
    const verifier = base64UrlEncode(octets)
    expect(verifier).toBe('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')
    expect(await s256Challenge(verifier)).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')
  })

  it('encodes URL-safe base64 without padding', () => {
    expect(base64UrlEncode(new Uint8Array([0xfb, 0xff]))).toBe('-_8')
    expect(base64UrlEncode(new Uint8Array([1]))).toBe('AQ')
  })
})
