import { z } from 'zod'
import { multiLineText, singleLineText } from './text.ts'
import { PREREGISTRATION_NAME_MIN } from './constants.ts'
import {
  CONTACT_MESSAGE_MAX,
  CONTACT_MESSAGE_MIN,
  CONTACT_NAME_MAX,
  EMAIL_MAX,
  PREREGISTRATION_EMAIL_PATTERN,
  PREREGISTRATION_NAME_MAX,
} from './site-rules.ts'
import { sportSchema } from './sport.ts'
import { requestIdSchema } from './ids.ts'

// The public site's own calls (spec 7 "Account and session"): contact, pre-registration, the
// country of the caller (geo by IP) and the Canadian states list.

// Its schema-free rules and constants are in site-rules.ts, which the browser imports without zod.

const email = z
  .string()
  .trim()
  .max(EMAIL_MAX, 'Email address is too long')
  .pipe(z.email({ message: 'Enter a valid email address' }))
  .transform((v) => v.toLowerCase())

/** Spec 7 `POST contact`: the contact form's fields. */
export const contactBodySchema = z.object({
  name: singleLineText()
    .min(1, 'Enter your name')
    .max(CONTACT_NAME_MAX, `Name must be at most ${CONTACT_NAME_MAX} characters`),
  email,
  message: multiLineText()
    .min(CONTACT_MESSAGE_MIN, `Write at least ${CONTACT_MESSAGE_MIN} characters`)
    .max(CONTACT_MESSAGE_MAX, `Keep it under ${CONTACT_MESSAGE_MAX} characters`),
  /** The competition the sender was looking at, when known. */
  sport: sportSchema.optional(),
  /** Sent again with it, the message is not stored or emailed twice (decision 049). */
  requestId: requestIdSchema,
})
export type ContactBody = z.infer<typeof contactBodySchema>

export const contactResponseSchema = z.object({ sent: z.literal(true) })
export type ContactResponse = z.infer<typeof contactResponseSchema>

/** Spec 3 "Pre-registration": name, email. */
export const preregistrationBodySchema = z.object({
  name: singleLineText()
    .min(PREREGISTRATION_NAME_MIN, `Name must be at least ${PREREGISTRATION_NAME_MIN} characters`)
    .max(PREREGISTRATION_NAME_MAX, `Name must be at most ${PREREGISTRATION_NAME_MAX} characters`),
  email: z
    .string()
    .trim()
    .max(EMAIL_MAX, 'Email address is too long')
    .regex(PREREGISTRATION_EMAIL_PATTERN, 'Enter a valid email address')
    .pipe(z.email({ message: 'Enter a valid email address' }))
    .transform((v) => v.toLowerCase()),
})
export type PreregistrationBody = z.infer<typeof preregistrationBodySchema>

/** The same answer for a new address and one already on the list (no address discovery). */
export const preregistrationResponseSchema = z.object({ message: z.string() })
export type PreregistrationResponse = z.infer<typeof preregistrationResponseSchema>

/** Spec 7 geo-by-IP country: `success.isoCode`, null when the country is not known. */
export const countryResponseSchema = z.object({ isoCode: z.string().length(2).nullable() })
export type CountryResponse = z.infer<typeof countryResponseSchema>

export const stateSchema = z.object({ code: z.string(), name: z.string() })
export type State = z.infer<typeof stateSchema>

/** Spec 7 `GET country/canada_state`: the states list (Canada's provinces and territories). */
export const canadaStatesResponseSchema = z.object({
  country: z.literal('CA'),
  states: z.array(stateSchema),
})
export type CanadaStatesResponse = z.infer<typeof canadaStatesResponseSchema>

/** ISO 3166-2:CA subdivision codes and names. */
export const CANADA_STATES: readonly State[] = [
  { code: 'AB', name: 'Alberta' },
  { code: 'BC', name: 'British Columbia' },
  { code: 'MB', name: 'Manitoba' },
  { code: 'NB', name: 'New Brunswick' },
  { code: 'NL', name: 'Newfoundland and Labrador' },
  { code: 'NS', name: 'Nova Scotia' },
  { code: 'NT', name: 'Northwest Territories' },
  { code: 'NU', name: 'Nunavut' },
  { code: 'ON', name: 'Ontario' },
  { code: 'PE', name: 'Prince Edward Island' },
  { code: 'QC', name: 'Quebec' },
  { code: 'SK', name: 'Saskatchewan' },
  { code: 'YT', name: 'Yukon' },
]

/**
 * ISO 3166-2:AU states and territories: the codes venues carry (`venues.json` `state`), published
 * as `states.json` (spec 3 static data sets; Canada's, the "country states", come from the API).
 */
export const AUSTRALIAN_STATES: readonly State[] = [
  { code: 'ACT', name: 'Australian Capital Territory' },
  { code: 'NSW', name: 'New South Wales' },
  { code: 'NT', name: 'Northern Territory' },
  { code: 'QLD', name: 'Queensland' },
  { code: 'SA', name: 'South Australia' },
  { code: 'TAS', name: 'Tasmania' },
  { code: 'VIC', name: 'Victoria' },
  { code: 'WA', name: 'Western Australia' },
]
