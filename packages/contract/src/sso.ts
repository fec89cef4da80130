import { z } from 'zod'
import { PKCE_VERIFIER_LENGTH } from './constants.ts'
import { PKCE_VERIFIER_PATTERN } from './sso-clients.ts'

// Single sign-on (spec 7 "Single sign-on", 4 "Sign-in callback", 3 "Login callback payload").

// Its schema-free parts (clients, callback paths, scope) are in sso-clients.ts, which the browser
// imports without zod.

const flag = z.union([z.literal(0), z.literal(1)])

/** `POST /api/{sport}/auth/login`: what the callback page sends after checking the state. */
export const ssoLoginBodySchema = z
  .object({
    code: z.string().min(1, 'The sign-in code is missing').max(2048),
    verifier: z
      .string()
      .length(PKCE_VERIFIER_LENGTH, `The code verifier must be ${PKCE_VERIFIER_LENGTH} characters`)
      .regex(PKCE_VERIFIER_PATTERN, 'The code verifier has characters outside A-Z a-z 0-9 - . _ ~'),
    nonce: z.string().min(16, 'The nonce is too short').max(256),
    mobile_app: flag.default(0),
    big_bash_app: flag.default(0),
  })
  .refine((b) => !(b.mobile_app === 1 && b.big_bash_app === 1), {
    message: 'Sign in through one app at a time',
    path: ['big_bash_app'],
  })
export type SsoLoginBody = z.input<typeof ssoLoginBodySchema>

const publicClientSchema = z.object({ clientId: z.string(), redirectUri: z.string() })
export type SsoPublicClient = z.infer<typeof publicClientSchema>

/** `GET /api/auth/sso-config`: only what the browser needs to build the authorize request. */
export const ssoConfigSchema = z.object({
  enabled: z.boolean(),
  issuer: z.string().nullable(),
  authorizationEndpoint: z.string().nullable(),
  /** The provider's RP-initiated logout endpoint, when its metadata offers one. */
  endSessionEndpoint: z.string().nullable(),
  /** Where the provider sends the browser after signing out there (registered with it). */
  postLogoutRedirectUri: z.string().nullable(),
  /** Where a signed-in user edits their provider profile (`?returnUrl=` brings them back). */
  profileUrl: z.string().nullable(),
  scope: z.string(),
  clients: z.object({
    web: publicClientSchema.nullable(),
    wbblApp: publicClientSchema.nullable(),
    bblApp: publicClientSchema.nullable(),
  }),
})
export type SsoConfig = z.infer<typeof ssoConfigSchema>
