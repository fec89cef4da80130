import { PKCE_VERIFIER_LENGTH } from '@tipping/contract/constants'

// PKCE (RFC 7636) and the random values of the authorize request, from the browser's CSPRNG.

/** RFC 7636 4.1: letters, digits and `-._~` (66 characters). */
export const VERIFIER_ALPHABET =
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~'

/**
 * `length` characters drawn uniformly from `alphabet`: bytes at or above the largest multiple
 * of the alphabet's size are thrown away, so no character is likelier than another.
 */
export function randomString(length: number, alphabet = VERIFIER_ALPHABET): string {
  const limit = 256 - (256 % alphabet.length)
  let out = ''
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2))
    for (const b of bytes) {
      if (b < limit) out += alphabet[b % alphabet.length]
      if (out.length === length) break
    }
  }
  return out
}

/** The code verifier: 128 characters (spec 9: PKCE verifier length). */
export const createCodeVerifier = (): string => randomString(PKCE_VERIFIER_LENGTH)

/** Base64 with the URL-safe alphabet and no padding (RFC 7636 appendix A). */
export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** The S256 code challenge: BASE64URL(SHA-256(ASCII(verifier))). */
export async function s256Challenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))
  return base64UrlEncode(new Uint8Array(digest))
}

/** A state or nonce: 32 random bytes (256 bits), URL-safe. */
export const randomToken = (): string => base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)))
