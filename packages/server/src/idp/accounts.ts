import { createHash, timingSafeEqual } from 'node:crypto'

/**
 * The development provider's own accounts: a stand-in for the real provider's user base, held in
 * memory (it is not the product's data). `favteam` is a squad code, as a provider may send one.
 */
export interface DevAccount {
  sub: string
  email: string
  firstname: string
  lastname: string
  favteam: string
  /**
   * The `email_verified` claim it sends; omitted, the claim is left out (as some providers do),
   * which the product must treat as unverified (issue 26, item 9).
   */
  emailVerified?: boolean
}

export const DEV_SSO_PASSWORD = 'sso-big-bash'

export const DEV_SSO_ACCOUNTS: readonly DevAccount[] = [
  {
    sub: 'dev-0001',
    email: 'sso-demo@tipping.example',
    firstname: 'Sam',
    lastname: 'Sixes',
    favteam: 'HEA',
    emailVerified: true,
  },
  {
    sub: 'dev-0002',
    email: 'sso-fan@tipping.example',
    firstname: 'Meg',
    lastname: 'Lanning',
    favteam: 'STA',
    emailVerified: true,
  },
  // The in-product demo account's email: signing in here links to that account.
  {
    sub: 'dev-0003',
    email: 'demo@tipping.example',
    firstname: 'Demo',
    lastname: 'Tipper',
    favteam: 'SIX',
    emailVerified: true,
  },
]

const digest = (s: string) => createHash('sha256').update(s).digest()

/** The account for an email and password, comparing in constant time whatever the email. */
export function verifyDevAccount(
  accounts: readonly DevAccount[],
  email: string,
  password: string,
): DevAccount | null {
  const found = accounts.find((a) => a.email === email.trim().toLowerCase())
  const ok = timingSafeEqual(digest(password), digest(DEV_SSO_PASSWORD))
  return found && ok ? found : null
}
