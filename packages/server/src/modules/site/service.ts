import {
  CANADA_STATES,
  PREREGISTRATION_SUCCESS,
  type CanadaStatesResponse,
  type ContactBody,
  type CountryResponse,
  type PreregistrationBody,
} from '@tipping/contract/site'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import { queueEmails } from '../mail/service.ts'
import { contactEmail, preregistrationEmail } from '../mail/site-templates.ts'
import * as q from './queries.ts'

export interface SiteSettings {
  clock: Clock
  supportEmail: string
  appOrigin: string
}

/** ISO 3166-1 alpha-2; the CDN codes for "unknown" (XX) and Tor (T1) are not countries. */
export function countryFromHeader(value: string | string[] | undefined): string | null {
  const raw = Array.isArray(value) ? value[0] : value
  const code = raw?.trim().toUpperCase() ?? ''
  if (!/^[A-Z]{2}$/.test(code) || code === 'XX' || code === 'T1') return null
  return code
}

/** Contact form, pre-registration list and the country look-ups of the public site. */
export class SiteService {
  constructor(
    private readonly db: Database,
    private readonly settings: SiteSettings,
  ) {}

  /** Stores the message and queues it to the support address, in one transaction. */
  async contact(body: ContactBody, userId: number | null): Promise<void> {
    const at = this.settings.clock.now()
    await this.db.transaction().execute(async (trx) => {
      await q.insertContactMessage(trx, { userId, ...body, at })
      const email = contactEmail({
        name: body.name,
        email: body.email,
        message: body.message,
        sport: body.sport ?? null,
        userId,
        receivedAt: at,
      })
      await queueEmails(trx, [{ ...email, to: this.settings.supportEmail }], at)
    })
  }

  /**
   * Adds the address to the list and queues the confirmation, once per address: a repeat gets
   * the same answer and no second email (so the form cannot be used to flood someone's inbox).
   */
  async preregister(body: PreregistrationBody): Promise<{ message: string }> {
    const at = this.settings.clock.now()
    await this.db.transaction().execute(async (trx) => {
      const added = await q.insertPreregistration(trx, { ...body, at })
      if (added) {
        const email = preregistrationEmail({ name: body.name, appOrigin: this.settings.appOrigin })
        await queueEmails(trx, [{ ...email, to: body.email }], at)
      }
    })
    return { message: PREREGISTRATION_SUCCESS }
  }

  country(headerValue: string | string[] | undefined): CountryResponse {
    return { isoCode: countryFromHeader(headerValue) }
  }

  canadaStates(): CanadaStatesResponse {
    return { country: 'CA', states: [...CANADA_STATES] }
  }
}
