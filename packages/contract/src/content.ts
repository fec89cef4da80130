import { z } from 'zod'
import { multiLineText, singleLineText } from './text.ts'
import { SPORTS, type Sport } from './constants.ts'
import { sportSchema } from './sport.ts'

// Site-wide content the admin console edits (issue 7, item 6) and the publisher turns into the
// static files the public site reads: notification_bar.json, {sport}/mrecs.json,
// {sport}/faqs.json, {sport}/help_pages.json, and the switches in app-config.json. Each setting is
// one row of content_settings (key -> JSON), validated by the schema of its key on the way in and
// again on the way out, so a bad row can never reach a published file.

export const NOTIFICATION_MESSAGE_MAX = 300
export const TOP_BANNER_MESSAGE_MAX = 200
export const ADVERTS_PER_SPORT_MAX = 20
export const FAQS_PER_SPORT_MAX = 200
export const FAQ_ANSWER_MAX = 5000
export const HELP_PAGES_PER_SPORT_MAX = 30
export const HELP_PAGE_BODY_MAX = 20_000

/**
 * A path on this site, as a browser reads it: one `/` then no `/` or `\` (a browser reads `\` as
 * `/`, so `/\evil.example` is the protocol-relative `//evil.example`), no backslash anywhere and
 * no white space (a browser drops tabs and line breaks, which could join `/` and `/` again). What
 * is left is a path-absolute URL, which resolves on the page's own origin whatever follows.
 */
export const isSitePath = (v: string): boolean => /^\/(?![/\\])[^\s\\]*$/.test(v)

/** A link or image address: a path on this site, or an https:// address elsewhere. */
export const contentLinkSchema = singleLineText()
  .min(1, 'Required')
  .max(500)
  .refine(
    (v) => isSitePath(v) || /^https:\/\/[^\s/\\]+\.[^\s]+$/.test(v),
    'Use a path on this site (/...) or an https:// address',
  )

/** Spec 3 "Notification bar config": one per competition, dismissible. */
export const notificationBarSchema = z
  .object({
    isEnabled: z.boolean(),
    message: singleLineText().max(NOTIFICATION_MESSAGE_MAX),
  })
  .refine((b) => !b.isEnabled || b.message.length > 0, {
    message: 'A bar that is shown needs a message',
    path: ['message'],
  })
export type NotificationBar = z.infer<typeof notificationBarSchema>

const perSport = <T extends z.ZodType>(inner: T) => z.object({ bbl: inner, wbbl: inner })

export const notificationBarsSettingSchema = perSport(notificationBarSchema)

/** Spec 2 "Top banner message": one line over every page, optionally a link. */
export const topBannerSettingSchema = z
  .object({
    isEnabled: z.boolean(),
    message: singleLineText().max(TOP_BANNER_MESSAGE_MAX),
    url: contentLinkSchema.nullable(),
  })
  .refine((b) => !b.isEnabled || b.message.length > 0, {
    message: 'A banner that is shown needs a message',
    path: ['message'],
  })
export type TopBanner = z.infer<typeof topBannerSettingSchema>

/**
 * Spec 3 "Advert": type (mrec or leaderboard), desktop and mobile images, a link. `alt`: what the
 * images say, for whoever cannot see them (WCAG 1.1.1); it is also the link's name, so it should
 * say where the link goes. Optional: adverts saved before it have none, and the slot then says
 * only that it is an advertisement.
 */
export const ADVERT_TYPES = ['mrec', 'leaderboard'] as const
export const ADVERT_ALT_MAX = 200
export const advertSchema = z.object({
  type: z.enum(ADVERT_TYPES),
  desktopImage: contentLinkSchema,
  mobileImage: contentLinkSchema,
  url: contentLinkSchema,
  alt: singleLineText().max(ADVERT_ALT_MAX).optional(),
})
export type Advert = z.infer<typeof advertSchema>
export const advertsSettingSchema = perSport(z.array(advertSchema).max(ADVERTS_PER_SPORT_MAX))

export const faqSchema = z.object({
  question: singleLineText().min(1, 'Required').max(300),
  answer: multiLineText().min(1, 'Required').max(FAQ_ANSWER_MAX),
})
export type Faq = z.infer<typeof faqSchema>
export const faqsSettingSchema = perSport(z.array(faqSchema).max(FAQS_PER_SPORT_MAX))

/**
 * A help page at /{sport}/help/{section}. The body is plain text; a blank line starts a new
 * paragraph (the site renders it as text, never as HTML).
 */
export const helpPageSchema = z.object({
  section: singleLineText()
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'Lower-case letters, digits and dashes, e.g. game-rules')
    .max(40),
  title: singleLineText().min(1, 'Required').max(100),
  body: multiLineText().min(1, 'Required').max(HELP_PAGE_BODY_MAX),
})
export type HelpPage = z.infer<typeof helpPageSchema>
const helpPageList = z
  .array(helpPageSchema)
  .max(HELP_PAGES_PER_SPORT_MAX)
  .superRefine((pages, ctx) => {
    const seen = new Set<string>()
    pages.forEach((p, i) => {
      if (seen.has(p.section))
        ctx.addIssue({
          code: 'custom',
          message: `Section ${p.section} is used twice`,
          path: [i, 'section'],
        })
      seen.add(p.section)
    })
  })
export const helpPagesSettingSchema = perSport(helpPageList)

/** Spec 2 offseason mode and spec 6 login-enabled flag. */
export const siteSwitchesSettingSchema = z.object({
  offseason: z.boolean(),
  loginEnabled: z.boolean(),
})
export type SiteSwitches = z.infer<typeof siteSwitchesSettingSchema>

/** Every content setting by its content_settings key. */
export const CONTENT_SETTINGS = {
  notification_bars: notificationBarsSettingSchema,
  top_banner: topBannerSettingSchema,
  adverts: advertsSettingSchema,
  faqs: faqsSettingSchema,
  help_pages: helpPagesSettingSchema,
  site_switches: siteSwitchesSettingSchema,
} as const
export type ContentKey = keyof typeof CONTENT_SETTINGS
export const CONTENT_KEYS = Object.keys(CONTENT_SETTINGS) as ContentKey[]
export const contentKeySchema = z.enum(CONTENT_KEYS as [ContentKey, ...ContentKey[]])

export const contentSettingsSchema = z.object(CONTENT_SETTINGS)
export type ContentSettings = z.infer<typeof contentSettingsSchema>

/** What a fresh deployment publishes: nothing shown, login on, in season. */
export const CONTENT_DEFAULTS: ContentSettings = {
  notification_bars: {
    bbl: { isEnabled: false, message: '' },
    wbbl: { isEnabled: false, message: '' },
  },
  top_banner: { isEnabled: false, message: '', url: null },
  adverts: { bbl: [], wbbl: [] },
  faqs: { bbl: [], wbbl: [] },
  help_pages: { bbl: [], wbbl: [] },
  site_switches: { offseason: false, loginEnabled: true },
}

/** Stored rows to settings: a missing or invalid row falls back to its default. */
export function readContentSettings(
  rows: { key: string; value: unknown }[],
  defaults: ContentSettings = CONTENT_DEFAULTS,
): ContentSettings {
  const byKey = new Map(rows.map((r) => [r.key, r.value]))
  const read = <K extends ContentKey>(key: K): ContentSettings[K] => {
    const parsed = CONTENT_SETTINGS[key].safeParse(byKey.get(key))
    return parsed.success ? (parsed.data as ContentSettings[K]) : defaults[key]
  }
  return {
    notification_bars: read('notification_bars'),
    top_banner: read('top_banner'),
    adverts: read('adverts'),
    faqs: read('faqs'),
    help_pages: read('help_pages'),
    site_switches: read('site_switches'),
  }
}

export const contentResponseSchema = z.object({ content: contentSettingsSchema })
export type ContentResponse = z.infer<typeof contentResponseSchema>

// The published files (ARCHITECTURE.md: static root), one shape each.

/** notification_bar.json: spec 3, one entry per competition. */
export const notificationBarFileSchema = z.object({
  bars: z.array(z.object({ sport: sportSchema, isEnabled: z.boolean(), message: z.string() })),
})
export type NotificationBarFile = z.infer<typeof notificationBarFileSchema>

/** {sport}/mrecs.json: the sport's adverts, mrec and leaderboard slots. */
export const mrecsFileSchema = z.object({
  adverts: z.array(advertSchema.extend({ sport: sportSchema })),
})
export type MrecsFile = z.infer<typeof mrecsFileSchema>

/** {sport}/faqs.json */
export const faqsFileSchema = z.object({ faqs: z.array(faqSchema) })
export type FaqsFile = z.infer<typeof faqsFileSchema>

/** {sport}/help_pages.json */
export const helpPagesFileSchema = z.object({ pages: z.array(helpPageSchema) })
export type HelpPagesFile = z.infer<typeof helpPagesFileSchema>

/** The files of the content settings, by path under the static root. */
export function contentFiles(c: ContentSettings): Record<string, unknown> {
  const files: Record<string, unknown> = {
    'notification_bar.json': {
      bars: SPORTS.map((sport) => ({ sport, ...c.notification_bars[sport] })),
    } satisfies NotificationBarFile,
  }
  for (const sport of SPORTS as readonly Sport[]) {
    files[`${sport}/mrecs.json`] = {
      adverts: c.adverts[sport].map((a) => ({ sport, ...a })),
    } satisfies MrecsFile
    files[`${sport}/faqs.json`] = { faqs: c.faqs[sport] } satisfies FaqsFile
    files[`${sport}/help_pages.json`] = { pages: c.help_pages[sport] } satisfies HelpPagesFile
  }
  return files
}

/** The content part of app-config.json (its other fields are server configuration). */
export function appConfigContent(c: ContentSettings): {
  offseason: boolean
  loginEnabled: boolean
  topBanner: { message: string; url: string | null } | null
} {
  return {
    offseason: c.site_switches.offseason,
    loginEnabled: c.site_switches.loginEnabled,
    topBanner: c.top_banner.isEnabled
      ? { message: c.top_banner.message, url: c.top_banner.url }
      : null,
  }
}
