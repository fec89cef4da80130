// Client-side checks with the contract's own schemas (the server checks the same ones again), so
// the browser and the server never disagree on a rule, and a form shows every field's problem at
// once instead of the server's first.

/** Messages by field name; `form` for what belongs to no one field. */
export type FieldErrors = Record<string, string>

/** What the forms need of a contract schema (zod's safeParse), without depending on zod here. */
interface Checkable {
  safeParse(
    value: unknown,
  ):
    | { success: true }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } }
}

/** The first message per field of a failed parse; an empty object when the value is valid. */
export function fieldErrorsOf(schema: Checkable, value: unknown): FieldErrors {
  const result = schema.safeParse(value)
  if (result.success) return {}
  const errors: FieldErrors = {}
  for (const issue of result.error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : 'form'
    errors[key] ??= issue.message
  }
  return errors
}

/**
 * A schema's messages, with a plain "Enter your ..." for each required field left empty (a
 * schema's own message for an empty value is about length or format, which reads oddly then).
 */
export function formErrors(
  schema: Checkable,
  value: Record<string, unknown>,
  emptyMessages: Record<string, string>,
): FieldErrors {
  const errors = fieldErrorsOf(schema, value)
  for (const [name, message] of Object.entries(emptyMessages)) {
    const v = value[name]
    if (typeof v !== 'string' || v.trim() === '') errors[name] = message
  }
  return errors
}

interface SchemaLayers {
  maxLength?: number | null
  /** A pipe's first schema (trim, then check the format, then transform). */
  in?: SchemaLayers
  /** An optional or nullable field's schema. */
  unwrap?: () => SchemaLayers
}

/**
 * The `maxLength` a string field's schema allows, for the input that edits it (undefined: no
 * limit), looking through pipes and optionals, so a form's limit is the contract's.
 */
export function maxLengthOf(schema: SchemaLayers): number | undefined {
  for (let s: SchemaLayers | undefined = schema; s;) {
    if (typeof s.maxLength === 'number') return s.maxLength
    s = s.in ?? s.unwrap?.()
  }
  return undefined
}

/** The name of the field an edit happened in (a form's change event), if any. */
export const editedField = (target: EventTarget): string | null =>
  target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement ? target.name : null

/** Focus moves to the first field, in the form's order, that has a message. */
export function focusFirstInvalid(form: HTMLFormElement, errors: FieldErrors): void {
  const first = Array.from(form.elements).find(
    (el): el is HTMLInputElement | HTMLTextAreaElement =>
      (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && el.name in errors,
  )
  first?.focus()
}
