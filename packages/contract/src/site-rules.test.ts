import { describe, expect, it } from 'vitest'
import { signUpBannerText } from './site-rules.ts'

describe('the sign-up banner (spec 2)', () => {
  it("names the provider's brand when one is configured", () => {
    expect(signUpBannerText('Acme')).toBe('Sign up for Acme Big Bash Tipping')
  })

  it('reads naturally without one', () => {
    expect(signUpBannerText(null)).toBe('Sign up for Big Bash Tipping')
    expect(signUpBannerText('')).toBe('Sign up for Big Bash Tipping')
  })
})
