import {
  CANADA_STATES,
  type CanadaStatesResponse,
  type ContactBody,
  type CountryResponse,
  type PreregistrationBody,
} from '@tipping/contract/site'
import { PREREGISTRATION_SUCCESS, type SiteAppConfig } from '@tipping/contract/site-rules'
import type { Clock } from '../../clock.ts'
import type { Config } from '../../config.ts'
import type { Database } from '../../db/schema.ts'
import { queueEmails } from '../mail/service.ts'
import { contactEmail, preregistrationEmail } from '../mail/site-templates.ts'
import * as q from './queries.ts'
import { inTransaction } from '../../db/transaction.ts'

export interface SiteSettings {
  clock: Clock
  supportEmail: string
  appOrigin: string
  /** Confirmation emails the whole site may send an hour (PREREGISTRATION_EMAILS_PER_HOUR). */
  preregistrationEmailsPerHour?: number
  /** Where security reports go (SECURITY_CONTACT); unset: the support address. */
  securityContact?: string | undefined
}

const DAY_MS = 86_400_000

/**
 * What the browser may know of the site's settings (STYLE.md: allow-listed config). Error reports
 * are sent from production only (spec 9), so outside it the endpoint is never published.
 */
export function siteAppConfig(config: Config): SiteAppConfig {
  return {
    brand: config.BRAND_NAME ?? null,
    appStoreUrl: config.APP_STORE_URL ?? null,
    playStoreUrl: config.PLAY_STORE_URL ?? null,
    errorReportUrl: config.DEPLOY_ENV === 'production' ? (config.ERROR_REPORT_URL ?? null) : null,
    taggingScriptUrl: config.TAGGING_SCRIPT_URL ?? null,
  }
}

/**
 * Origins the content security policy must allow for the configured hooks, and only those
 * (script-src 'self' otherwise): the tagging script's, and where error reports are posted.
 */
export function hookOrigins(site: SiteAppConfig): { script: string[]; connect: string[] } {
  const origin = (u: string | null) => (u ? [new URL(u).origin] : [])
  return { script: origin(site.taggingScriptUrl), connect: origin(site.errorReportUrl) }
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

  /**
   * `/.well-known/security.txt` (RFC 9116): where to report a vulnerability. Its Expires is
   * required and should be under a year away: 180 days from today, so the file stays valid for
   * as long as the site runs with this setting, and stops claiming a contact once it does not.
   */
  securityTxt(): string {
    const contact = this.settings.securityContact ?? `mailto:${this.settings.supportEmail}`
    const today = new Date(Math.floor(this.settings.clock.now().getTime() / DAY_MS) * DAY_MS)
    const expires = new Date(today.getTime() + 180 * DAY_MS).toISOString()
    const origin = this.settings.appOrigin.replace(/\/+$/, '')
    return [
      `Contact: ${contact}`,
      `Expires: ${expires}`,
      'Preferred-Languages: en',
      `Canonical: ${origin}/.well-known/security.txt`,
      '',
    ].join('\n')
  }

  /** Stores the message and queues it to the support address, in one transaction. */
  async contact(body: ContactBody, userId: number | null): Promise<void> {
    const at = this.settings.clock.now()
    await inTransaction(this.db, async (trx) => {
      const stored = await q.insertContactMessage(trx, { userId, ...body, at })
      // Decision 049: the same message sent again with its key was stored and emailed already.
      if (stored === undefined) return
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
   * The whole site sends at most PREREGISTRATION_EMAILS_PER_HOUR of them, so many addresses from
   * many callers cannot make it a mail cannon either; past that the address is listed without a
   * confirmation, and the answer is the same (it says nothing about other people's addresses).
   */
  async preregister(body: PreregistrationBody): Promise<{ message: string }> {
    const at = this.settings.clock.now()
    const cap = this.settings.preregistrationEmailsPerHour ?? 500
    await inTransaction(this.db, async (trx) => {
      await q.lockPreregistrationEmails(trx)
      const sent = await q.preregistrationsSince(trx, new Date(at.getTime() - 3_600_000))
      const added = await q.insertPreregistration(trx, { ...body, at })
      if (added && sent < cap) {
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
