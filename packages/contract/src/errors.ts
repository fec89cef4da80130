import { z } from 'zod'

/** Every error a service may raise; the HTTP status lives beside it so routes never choose one. */
export const ERROR_STATUS = {
  VALIDATION: 400,
  INVALID_SQUAD: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  /** Single sign-on refused: a used or expired code, a nonce mismatch, an ID token that fails checks. */
  SSO_REFUSED: 401,
  FORBIDDEN: 403,
  CROSS_ORIGIN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  EMAIL_TAKEN: 409,
  MATCH_LOCKED: 409,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  NOT_REGISTERED: 513,
  SERVICE_UNAVAILABLE: 503,
  /** The identity provider cannot be reached or does not accept this app's client settings. */
  SSO_PROVIDER_ERROR: 502,
} as const satisfies Record<string, number>

export type ErrorCode = keyof typeof ERROR_STATUS

export const apiErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  param: z.string().nullable(),
})
export type ApiError = z.infer<typeof apiErrorSchema>

export const errorEnvelopeSchema = z.object({ errors: z.array(apiErrorSchema).min(1) })
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>

export const successEnvelope = <T extends z.ZodType>(inner: T) => z.object({ success: inner })
export type SuccessEnvelope<T> = { success: T }
