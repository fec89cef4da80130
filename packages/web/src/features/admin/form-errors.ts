import type { z } from 'zod'
import { failureMessage, isApiFailure } from '../../lib/api.ts'

/** Field errors by dotted path (`home.runs`); `form` for what belongs to no field. */
export type FieldErrors = Record<string, string>

/** The first message of each field of a failed zod parse. */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {}
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.join('.') : 'form'
    out[key] ??= issue.message
  }
  return out
}

/**
 * A server refusal (a mutation's `unwrap()` throws the cache's ApiFailure) under the field it
 * names (the envelope's param), else under `form`.
 */
export function apiFieldErrors(err: unknown): FieldErrors {
  if (isApiFailure(err)) {
    const key = err.param && err.param !== 'body' ? err.param : 'form'
    return { [key]: err.message }
  }
  return { form: failureMessage(err, 'Something went wrong') }
}

/** The first message of a failed call, for a form that shows one message. */
export const apiError = (err: unknown): string | undefined => Object.values(apiFieldErrors(err))[0]

/** Errors for fields a form does not show move to `form`, so none is ever hidden. */
export function visibleErrors(errors: FieldErrors, fields: readonly string[]): FieldErrors {
  const out: FieldErrors = {}
  for (const [k, v] of Object.entries(errors)) {
    if (k === 'form' || fields.includes(k)) out[k] ??= v
    else out.form = out.form ? `${out.form} ${k}: ${v}` : `${k}: ${v}`
  }
  return out
}

/** A text field of a form ('' when absent or a file). */
export function formText(data: FormData, name: string): string {
  const v = data.get(name)
  return typeof v === 'string' ? v : ''
}
