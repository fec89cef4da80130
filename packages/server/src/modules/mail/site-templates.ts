import { gameName, SEASON_PROMOTION, SITE_NAME, type Sport } from '@tipping/contract/constants'
import type { OutgoingEmail } from './queries.ts'
import { escapeHtml } from '../../html.ts'
import { page, quoteBlock, quoteBlockHtml, quoted } from './templates.ts'
import { UNSUBSCRIBE_LINE } from './unsubscribe.ts'

// The public site's emails (contact, pre-registration, weekly reminder), plain text with an HTML
// twin. What a visitor typed is escaped in the HTML, quoted in the text (a name in double quotes,
// a message as `> ` lines, so it cannot pass for the fields above it) and kept out of subjects.
const trimOrigin = (origin: string) => origin.replace(/\/+$/, '')

export interface ContactFacts {
  name: string
  email: string
  message: string
  sport: Sport | null
  userId: number | null
  receivedAt: Date
}

/** The message from the contact form, to the support address; replies go to the sender. */
export function contactEmail(f: ContactFacts): Omit<OutgoingEmail, 'to'> {
  const about = f.sport ? gameName(f.sport) : SITE_NAME
  const who = f.userId === null ? 'a visitor (not signed in)' : `signed-in user #${f.userId}`
  const facts = [
    `Name: ${quoted(f.name)}`,
    `Email: ${f.email}`,
    `Account: ${who}`,
    `Competition: ${about}`,
    `Received: ${f.receivedAt.toISOString()}`,
  ]
  return {
    kind: 'contact',
    subject: `Contact form message (${about})`,
    text: [...facts, '', 'Message:', quoteBlock(f.message)].join('\n'),
    html: page(
      [`<p>${facts.map(escapeHtml).join('<br>\n')}</p>`, '<hr>', quoteBlockHtml(f.message)].join(
        '\n',
      ),
    ),
  }
}

/** Confirmation to someone who registered interest in the coming season. */
export function preregistrationEmail(f: {
  name: string
  appOrigin: string
}): Omit<OutgoingEmail, 'to'> {
  const site = trimOrigin(f.appOrigin)
  const lines = [
    `Hi ${f.name},`,
    '',
    `Thanks for registering your interest in ${SITE_NAME} for the ${SEASON_PROMOTION} season.`,
    "We'll email you when tipping opens, so you can sign up and make your first picks.",
    '',
    site,
    '',
    "If you didn't ask for this, ignore this email and we won't write again.",
  ]
  return {
    kind: 'preregistration',
    subject: `You're on the list for ${SITE_NAME} ${SEASON_PROMOTION}`,
    text: lines.join('\n'),
    html: page(
      [
        `<p>Hi ${escapeHtml(f.name)},</p>`,
        `<p>Thanks for registering your interest in ${SITE_NAME} for the ${SEASON_PROMOTION} season.`,
        "We'll email you when tipping opens, so you can sign up and make your first picks.</p>",
        `<p><a href="${escapeHtml(site)}">${escapeHtml(site)}</a></p>`,
        "<p>If you didn't ask for this, ignore this email and we won't write again.</p>",
      ].join('\n'),
    ),
  }
}

/** Stands in for each user's own list of untipped matches; filled in by the reminder job's SQL. */
export const REMINDER_MATCHES_SLOT = '{{untipped-matches}}'

/**
 * The weekly reminder, one template per round: the job puts each user's untipped matches (text
 * lines in the text body, list items in the HTML) where REMINDER_MATCHES_SLOT stands.
 */
export function weeklyReminderEmail(f: {
  sport: Sport
  roundLabel: string
  firstMatchAt: Date
  appOrigin: string
  /** 'match': the reminder 2 hours before the player's first untipped match (decision 026). */
  lead?: 'round' | 'match'
}): Omit<OutgoingEmail, 'to'> & { html: string } {
  const game = gameName(f.sport)
  const link = `${trimOrigin(f.appOrigin)}/${f.sport}/tipping`
  const starts = `${f.firstMatchAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`
  const account = `${trimOrigin(f.appOrigin)}/${f.sport}/account`
  const match = f.lead === 'match'
  const intro = match
    ? `A match of ${f.roundLabel} of ${game} you have not tipped starts within 2 hours. Still to tip:`
    : `${f.roundLabel} of ${game} starts ${starts}, and you still have matches to tip:`
  const why = match ? 'match reminders (2 hours before)' : 'weekly reminders'
  const text = [
    'Hi,',
    '',
    intro,
    '',
    REMINDER_MATCHES_SLOT,
    '',
    `Enter your tips: ${link}`,
    '',
    `You get this because ${why} are on in your account (${account}).`,
    UNSUBSCRIBE_LINE.text,
  ].join('\n')
  const html = page(
    [
      '<p>Hi,</p>',
      `<p>${escapeHtml(intro)}</p>`,
      `<ul>${REMINDER_MATCHES_SLOT}</ul>`,
      `<p><a href="${escapeHtml(link)}">Enter your tips</a></p>`,
      `<p style="font-size:12px;color:#555">You get this because ${why} are on in <a href="${escapeHtml(account)}">your account</a>. ${UNSUBSCRIBE_LINE.html}</p>`,
    ].join('\n'),
  )
  return {
    kind: match ? 'match_reminder' : 'weekly_reminder',
    subject: match
      ? `${f.roundLabel} of ${game}: a match you have not tipped starts soon`
      : `${f.roundLabel} of ${game}: you have matches to tip`,
    text,
    html,
  }
}

/** One match's line in the reminder, as text and as an HTML list item. */
export function reminderMatchLine(m: {
  home: string
  away: string
  startsAt: Date
  /** The squad the player's autopilot will tip if they do not (decision 026). */
  autopilot?: string
}): {
  text: string
  html: string
} {
  const when = `${m.startsAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`
  const ap = m.autopilot === undefined ? '' : ` (autopilot will tip ${m.autopilot})`
  return {
    text: `- ${m.home} v ${m.away}, ${when}${ap}`,
    html: `<li>${escapeHtml(m.home)} v ${escapeHtml(m.away)}, ${when}${escapeHtml(ap)}</li>`,
  }
}
