import { gameName, SITE_NAME, type Sport } from '@tipping/contract/constants'
import { escapeHtml } from '../../html.ts'
import { UNSUBSCRIBE_LINE } from './unsubscribe.ts'
import type { OutgoingEmail } from './queries.ts'

// The emails the game sends, as plain text with a simple HTML twin. Every value a user typed
// (league name, display name, message) is escaped in the HTML, and never in a subject: an
// invitation goes to any address, so a subject carrying the sender's text made the product a
// spam relay with its own name on it (issue 26, item 7). In the body user text is quoted: a
// one-line value in double quotes, a message as `> ` lines, so it cannot pass for our own lines.

/** Header values (subjects) on one line, whatever was typed. */
const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim()

/** A one-line value someone typed, in double quotes, for a plain text body. */
export const quoted = (s: string): string => `"${oneLine(s)}"`

/** A message someone typed, every line marked `> ` as a quotation, for a plain text body. */
export const quoteBlock = (s: string): string =>
  s
    .split(/\r?\n/)
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n')

/** The same message in HTML: escaped, line breaks kept, set apart as a quotation. */
export const quoteBlockHtml = (s: string): string =>
  `<blockquote style="margin:0 0 0 8px;padding-left:8px;border-left:3px solid #ccc">${escapeHtml(s).replace(/\r?\n/g, '<br>\n')}</blockquote>`

/** An HTML email body in the house style. */
export const page = (body: string): string =>
  `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;line-height:1.5;color:#1a1a1a">${body}</body></html>`

/** Join link form (spec 1, 7 "Sharing"): the web app's join route for the league's sport. */
export const joinLink = (appOrigin: string, sport: Sport, code: string): string =>
  `${appOrigin.replace(/\/+$/, '')}/${sport}/leagues/join/${encodeURIComponent(code)}`

export interface InvitationFacts {
  sport: Sport
  appOrigin: string
  leagueName: string
  code: string
  startRound: number
  privacy: 'private' | 'public'
  commissioner: string
}

export function invitationEmail(f: InvitationFacts): Omit<OutgoingEmail, 'to'> {
  const link = joinLink(f.appOrigin, f.sport, f.code)
  const game = gameName(f.sport)
  const privacy = f.privacy === 'private' ? 'Private' : 'Public'
  const text = [
    'Hi,',
    '',
    `You have been invited to join a league in ${game}.`,
    '',
    `League: ${quoted(f.leagueName)}`,
    `Invited by: ${quoted(f.commissioner)}`,
    '',
    `Join now: ${link}`,
    `(or enter the join code ${f.code} under Your Leagues, Join a league)`,
    '',
    `Starting week: ${f.startRound}`,
    `Privacy: ${privacy}`,
    '',
    "If you weren't expecting this invitation, you can ignore this email.",
  ].join('\n')
  const html = page(
    [
      '<p>Hi,</p>',
      `<p>You have been invited to join a league in ${game}.</p>`,
      `<p>League: <strong>${escapeHtml(quoted(f.leagueName))}</strong><br>Invited by: ${escapeHtml(quoted(f.commissioner))}</p>`,
      `<p><a href="${escapeHtml(link)}">Join now</a></p>`,
      `<p>Or enter the join code <strong>${escapeHtml(f.code)}</strong> under Your Leagues, Join a league.</p>`,
      `<p>Starting week: ${f.startRound}<br>Privacy: ${privacy}</p>`,
      "<p>If you weren't expecting this invitation, you can ignore this email.</p>",
    ].join('\n'),
  )
  return {
    kind: 'league_invite',
    subject: `You're invited to join a league on ${game}`,
    text,
    html,
  }
}

export interface LeagueMessageFacts {
  sport: Sport
  appOrigin: string
  leagueName: string
  commissioner: string
  subject: string
  message: string
}

export function leagueMessageEmail(f: LeagueMessageFacts): Omit<OutgoingEmail, 'to'> {
  const game = gameName(f.sport)
  const leagues = `${f.appOrigin.replace(/\/+$/, '')}/${f.sport}/leagues`
  const intro = [
    `League: ${quoted(f.leagueName)}`,
    `From: ${quoted(f.commissioner)}, the league's commissioner`,
    `Subject: ${quoted(f.subject)}`,
  ]
  const footer = `The commissioner of ${quoted(f.leagueName)} sent this to the league's members on ${game}. To stop these emails, leave the league or turn notifications off in your account.`
  const text = `${intro.join('\n')}\n\n${quoteBlock(f.message)}\n\n--\n${footer}\n${leagues}\n${UNSUBSCRIBE_LINE.text}`
  const html = page(
    [
      `<p>${intro.map(escapeHtml).join('<br>\n')}</p>`,
      quoteBlockHtml(f.message),
      '<hr>',
      `<p style="font-size:12px;color:#555">${escapeHtml(footer)}<br><a href="${escapeHtml(leagues)}">Your leagues</a><br>${UNSUBSCRIBE_LINE.html}</p>`,
    ].join('\n'),
  )
  return {
    kind: 'league_message',
    subject: `A message from your league commissioner on ${game}`,
    text,
    html,
  }
}

export interface PasswordResetFacts {
  appOrigin: string
  token: string
  firstName: string
  validMinutes: number
}

/** The web app's reset page, carrying the single-use token. */
export const passwordResetLink = (appOrigin: string, token: string): string =>
  `${appOrigin.replace(/\/+$/, '')}/reset-password?token=${encodeURIComponent(token)}`

export function passwordResetEmail(f: PasswordResetFacts): Omit<OutgoingEmail, 'to'> {
  const link = passwordResetLink(f.appOrigin, f.token)
  const greeting = f.firstName.trim() ? `Hi ${oneLine(f.firstName)},` : 'Hi,'
  const valid =
    f.validMinutes % 60 === 0
      ? `${f.validMinutes / 60} hour${f.validMinutes === 60 ? '' : 's'}`
      : `${f.validMinutes} minutes`
  const text = [
    greeting,
    '',
    `Someone asked to reset the password of your ${SITE_NAME} account.`,
    '',
    `Choose a new password: ${link}`,
    '',
    `The link works once, for ${valid}. Setting a new password signs you out on every device.`,
    '',
    "If you didn't ask for this, you can ignore this email; your password stays as it is.",
  ].join('\n')
  const html = page(
    [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>Someone asked to reset the password of your ${SITE_NAME} account.</p>`,
      `<p><a href="${escapeHtml(link)}">Choose a new password</a></p>`,
      `<p>The link works once, for ${valid}. Setting a new password signs you out on every device.</p>`,
      "<p>If you didn't ask for this, you can ignore this email; your password stays as it is.</p>",
    ].join('\n'),
  )
  return { kind: 'password_reset', subject: `Reset your ${SITE_NAME} password`, text, html }
}
