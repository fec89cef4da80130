import { z } from 'zod'

// The one rule for text people type (issue 26, item 4). PostgreSQL cannot store a NUL in a text
// column (the insert fails, which answered 500), and other control characters have no business in
// a name or a search: a CR/LF in a name forged lines in the support email. So every text field of
// every request schema is built from one of these two helpers, and refuses C0 controls and DEL
// with a 400 naming the field. A multi-line field (a message, a description, an FAQ answer) keeps
// line breaks (\n, \r\n) and tabs; a single-line field (a name, a search, a subject) keeps none.
// Both trim first, so the line break a pasted value ends with is dropped rather than refused. Both
// refuse the explicit text-direction controls too (NO_DIRECTION_CONTROLS).

/** Nothing below U+0020 and no DEL. */
export const SINGLE_LINE_PATTERN = /^[^\x00-\x1f\x7f]*$/
/** As SINGLE_LINE_PATTERN, but tabs, \n and \r\n (never a lone \r) are allowed. */
export const MULTI_LINE_PATTERN = /^(?:[^\x00-\x08\x0b-\x1f\x7f]|\r\n)*$/

export const SINGLE_LINE_MESSAGE = 'Remove line breaks, tabs and other control characters'
export const MULTI_LINE_MESSAGE = 'Remove control characters (line breaks and tabs are fine)'

/**
 * No explicit text-direction controls (Unicode's embeddings, overrides and isolates, U+202A-U+202E
 * and U+2066-U+2069). A team name holding a right-to-left override is drawn backwards, and the
 * text after it on the same ladder row with it, so a name could pass itself off as another or
 * as a score. Names in Arabic or Hebrew need none of them: the Unicode bidirectional algorithm
 * lays such text out from its letters alone.
 */
export const NO_DIRECTION_CONTROLS = /^[^\u202a-\u202e\u2066-\u2069]*$/
export const DIRECTION_CONTROL_MESSAGE = 'Remove text-direction control characters'

/** A trimmed one-line text field: chain `.min()`, `.max()` and the rest on it. */
export const singleLineText = () =>
  z
    .string()
    .trim()
    .regex(SINGLE_LINE_PATTERN, SINGLE_LINE_MESSAGE)
    .regex(NO_DIRECTION_CONTROLS, DIRECTION_CONTROL_MESSAGE)

/** A trimmed text field that may span lines (a message, a description). */
export const multiLineText = () =>
  z
    .string()
    .trim()
    .regex(MULTI_LINE_PATTERN, MULTI_LINE_MESSAGE)
    .regex(NO_DIRECTION_CONTROLS, DIRECTION_CONTROL_MESSAGE)

/** True when a value passes the one-line rule: for checks outside a schema. */
export const isSingleLine = (s: string): boolean =>
  SINGLE_LINE_PATTERN.test(s) && NO_DIRECTION_CONTROLS.test(s)
