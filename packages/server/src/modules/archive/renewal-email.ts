import { gameName, type Sport } from '@tipping/contract/constants'
import type { OutgoingEmail } from '../mail/service.ts'
import { escapeHtml } from '../../html.ts'
import { page, quoted } from '../mail/templates.ts'
import { UNSUBSCRIBE_LINE } from '../mail/unsubscribe.ts'

export interface RenewalFacts {
  sport: Sport
  appOrigin: string
  leagueName: string
  /** The new season, "2026-27". */
  year: string
  startRound: number
  commissioner: string
}

/**
 * The notice to last season's members of a renewed league (issue 31): they are asked, not
 * moved, so the email only points at the offer on their leagues page (join with one click, or
 * decline). The league's name and the commissioner's are quoted, never in the subject.
 */
export function renewalEmail(f: RenewalFacts): Omit<OutgoingEmail, 'to'> {
  const link = `${f.appOrigin.replace(/\/+$/, '')}/${f.sport}/leagues`
  const game = gameName(f.sport)
  const text = [
    'Hi,',
    '',
    `A league you played in last season is back for ${f.year} in ${game}.`,
    '',
    `League: ${quoted(f.leagueName)}`,
    `Renewed by: ${quoted(f.commissioner)}`,
    `Starting week: ${f.startRound}`,
    '',
    `Join it or decline under Your Leagues: ${link}`,
    '',
    'Nothing changes until you choose; last season’s ladder stays in the league’s history.',
    '',
    UNSUBSCRIBE_LINE.text,
  ].join('\n')
  const html = page(
    [
      '<p>Hi,</p>',
      `<p>A league you played in last season is back for ${escapeHtml(f.year)} in ${game}.</p>`,
      `<p>League: <strong>${escapeHtml(quoted(f.leagueName))}</strong><br>Renewed by: ${escapeHtml(quoted(f.commissioner))}<br>Starting week: ${f.startRound}</p>`,
      `<p><a href="${escapeHtml(link)}">Join it or decline under Your Leagues</a></p>`,
      '<p>Nothing changes until you choose; last season’s ladder stays in the league’s history.</p>',
      `<p style="font-size:12px;color:#555">${UNSUBSCRIBE_LINE.html}</p>`,
    ].join('\n'),
  )
  return {
    kind: 'league_renewal',
    subject: `A league is back for ${f.year} on ${game}`,
    text,
    html,
  }
}
