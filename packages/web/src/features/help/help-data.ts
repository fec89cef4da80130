import type { Sport } from '@tipping/contract/constants'
import {
  faqsFileSchema,
  helpPagesFileSchema,
  type Faq,
  type FaqsFile,
  type HelpPage,
  type HelpPagesFile,
} from '@tipping/contract/content'
import { api } from '../../lib/api.ts'

export interface HelpContent {
  faqs: Faq[]
  pages: HelpPage[]
}

/** A sport's published help: {sport}/faqs.json and {sport}/help_pages.json. */
export const helpApi = api.injectEndpoints({
  endpoints: (build) => ({
    faqs: build.query<FaqsFile, Sport>({
      query: (sport) => ({ static: `${sport}/faqs.json` }),
      responseSchema: faqsFileSchema,
      providesTags: ['Static'],
    }),
    helpPages: build.query<HelpPagesFile, Sport>({
      query: (sport) => ({ static: `${sport}/help_pages.json` }),
      responseSchema: helpPagesFileSchema,
      providesTags: ['Static'],
    }),
  }),
})

/** Both help files of a sport: the content once both are there, 'failed' if either failed. */
export function useHelp(sport: Sport): HelpContent | null | 'failed' {
  const faqs = helpApi.useFaqsQuery(sport)
  const pages = helpApi.useHelpPagesQuery(sport)
  if (faqs.isError || pages.isError) return 'failed'
  return faqs.currentData && pages.currentData
    ? { faqs: faqs.currentData.faqs, pages: pages.currentData.pages }
    : null
}

/** The FAQ section's address segment (the other sections are the help pages' own). */
export const FAQ_SECTION = 'faq'

export type HelpView =
  { kind: 'faq' } | { kind: 'page'; page: HelpPage } | { kind: 'missing'; section: string }

/** Which part of help an address shows: no section or `faq` is the FAQ, else a help page. */
export function helpViewFor(content: HelpContent, section: string | undefined): HelpView {
  if (section === undefined || section === FAQ_SECTION) return { kind: 'faq' }
  const page = content.pages.find((p) => p.section === section)
  return page ? { kind: 'page', page } : { kind: 'missing', section }
}

/** A help page body as paragraphs: a blank line starts a new one (never rendered as HTML). */
export const paragraphsOf = (body: string): string[] =>
  body
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
