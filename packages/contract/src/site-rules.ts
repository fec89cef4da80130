import { PREREGISTRATION_NAME_MIN } from './constants.ts'
import type { AppConfigFile } from './static-files.ts'

// The public site's schema-free rules and constants (contact, pre-registration, error reports and
// the site's app config): the browser's landing page imports these without loading site.ts's
// schemas.

export const CONTACT_NAME_MAX = 80
export const CONTACT_MESSAGE_MIN = 10
export const CONTACT_MESSAGE_MAX = 2000
export const PREREGISTRATION_NAME_MAX = 80
/** The longest email address the public site's forms take (SMTP's path limit). */
export const EMAIL_MAX = 254

/** Spec 5: the browser's basic email pattern for pre-registration (name@domain, a 2-3 letter ending). */
export const PREREGISTRATION_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,3}$/

/** Spec 5: the Register your interest button is enabled only for a name and email that pass. */
export const canPreregister = (name: string, email: string, message: string | null): boolean =>
  name.trim().length >= PREREGISTRATION_NAME_MIN &&
  PREREGISTRATION_EMAIL_PATTERN.test(email.trim()) &&
  !message

export const PREREGISTRATION_SUCCESS = 'Successfully Pre-registered'

/** Spec 2: 'Sign up for {brand} Big Bash Tipping', {brand} the provider's name, when there is one. */
export const signUpBannerText = (brand: string | null): string =>
  brand ? `Sign up for ${brand} Big Bash Tipping` : 'Sign up for Big Bash Tipping'

/** Spec 9: error reports are sampled at this rate, and only from production. */
export const ERROR_REPORT_SAMPLE_RATE = 0.1

/** The site's part of app-config.json: brand, store links, optional hooks. */
export type SiteAppConfig = Pick<
  AppConfigFile,
  'brand' | 'appStoreUrl' | 'playStoreUrl' | 'errorReportUrl' | 'taggingScriptUrl'
>
export const DEFAULT_SITE_APP_CONFIG: SiteAppConfig = {
  brand: null,
  appStoreUrl: null,
  playStoreUrl: null,
  errorReportUrl: null,
  taggingScriptUrl: null,
}
