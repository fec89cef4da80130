import type { Sport } from '@tipping/contract/constants'
import type { Faq, FaqsFile, HelpPage, HelpPagesFile } from '@tipping/contract/content'
import { staticJson } from '../../lib/static-data.ts'

export interface HelpContent {
  faqs: Faq[]
  pages: HelpPage[]
}

/** A sport's published help: {sport}/faqs.json and {sport}/help_pages.json. */
export async function fetchHelp(sport: Sport): Promise<HelpContent> {
  const [faqs, pages] = await Promise.all([
    staticJson<FaqsFile>(`${sport}/faqs.json`),
    staticJson<HelpPagesFile>(`${sport}/help_pages.json`),
  ])
  return { faqs: faqs.faqs, pages: pages.pages }
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
