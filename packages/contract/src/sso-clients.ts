// Single sign-on's schema-free parts (spec 7 "Single sign-on", 4 "Sign-in callback"): the browser
// imports these without loading the request schemas of sso.ts.

/** The scope every authorize request asks for, exactly as the specification lists it. */
export const SSO_SCOPE = 'openid email firstname lastname favteam'

/** RFC 7636 section 4.1: the code verifier's alphabet (unreserved URI characters). */
export const PKCE_VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]+$/

/**
 * The three client settings: the website, the women's app (`/login-app`) and the men's app
 * (`/login-bigbash-app`), each with its own callback page.
 */
export const SSO_CLIENTS = ['web', 'wbblApp', 'bblApp'] as const
export type SsoClientName = (typeof SSO_CLIENTS)[number]

export const SSO_CALLBACK_PATHS: Record<SsoClientName, string> = {
  web: '/login/callback',
  wbblApp: '/login-app/callback',
  bblApp: '/login-bigbash-app/callback',
}

/** The callback payload's app flags name the client: neither is the website. */
export const ssoClientFor = (flags: { mobile_app: 0 | 1; big_bash_app: 0 | 1 }): SsoClientName =>
  flags.big_bash_app === 1 ? 'bblApp' : flags.mobile_app === 1 ? 'wbblApp' : 'web'

export const ssoAppFlags = (client: SsoClientName): { mobile_app: 0 | 1; big_bash_app: 0 | 1 } => ({
  mobile_app: client === 'wbblApp' ? 1 : 0,
  big_bash_app: client === 'bblApp' ? 1 : 0,
})
