import crypto from 'node:crypto'

// One-click unsubscribe (RFC 8058, decision 043). Mail providers ask bulk senders for it (Gmail's
// and Yahoo's sender rules of 2024): a list email names a link in List-Unsubscribe, and the
// provider's "Unsubscribe" button POSTs to it, with no cookie and no sign-in. So the link itself
// is the authority: it names the account and the list and carries a keyed digest of both, which
// only this server can make. Opening it in a browser (a GET, which link scanners also make)
// changes nothing; it shows a page whose button makes the same POST.

/** The lists a player can leave, each one switch of the account's email settings. */
export const MAIL_LISTS = ['reminders', 'league'] as const
export type MailList = (typeof MAIL_LISTS)[number]

/** Which list an outbox email's kind belongs to; the other kinds are not list mail. */
export const LIST_OF_KIND: Readonly<Record<string, MailList>> = {
  weekly_reminder: 'reminders',
  match_reminder: 'reminders',
  league_message: 'league',
  league_renewal: 'league',
}

/** What each list is, as the unsubscribe page says it (the account page names the same two settings). */
export const LIST_LABEL: Readonly<Record<MailList, string>> = {
  reminders: 'tipping reminder emails',
  league: 'emails with messages and news from your leagues',
}

const TOKEN = /^(\d{1,10})\.(reminders|league)\.([A-Za-z0-9_-]{22})$/

/**
 * The digest: HMAC-SHA256 keyed with RECEIPT_SECRET over a text no receipt can have (receipts
 * sign their own canonical text, which never starts with this prefix), cut to 128 bits.
 */
const digest = (secret: string, userId: number, list: MailList): string =>
  crypto
    .createHmac('sha256', secret)
    .update(`unsubscribe\n${userId}\n${list}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url')

export const unsubscribeToken = (secret: string, userId: number, list: MailList): string =>
  `${userId}.${list}.${digest(secret, userId, list)}`

/** The account and list a token names, or null for anything this server did not make. */
export function readUnsubscribeToken(
  secret: string,
  token: string,
): { userId: number; list: MailList } | null {
  const m = TOKEN.exec(token)
  if (!m) return null
  const userId = Number(m[1])
  const list = m[2] as MailList
  const want = Buffer.from(digest(secret, userId, list))
  const got = Buffer.from(m[3]!)
  return userId <= 2_147_483_647 && crypto.timingSafeEqual(want, got) ? { userId, list } : null
}

/** The link an email of `kind` to `userId` carries, or null when it is not list mail. */
export function unsubscribeUrl(
  o: { origin: string; secret: string },
  kind: string,
  userId: number | null,
): string | null {
  const list = LIST_OF_KIND[kind]
  if (!list || userId === null) return null
  return `${o.origin.replace(/\/+$/, '')}/unsubscribe/${unsubscribeToken(o.secret, userId, list)}`
}

/**
 * Where a list email's body links to its own unsubscribe page: the templates write this, and the
 * delivery job puts each recipient's link in its place as it sends (the body is one template for
 * a whole run or league, made in SQL; the link is per account).
 */
export const UNSUBSCRIBE_SLOT = '{{unsubscribe}}'

/** The footer line of list mail, text and HTML, with the slot for the link. */
export const UNSUBSCRIBE_LINE = {
  text: `Unsubscribe in one click: ${UNSUBSCRIBE_SLOT}`,
  html: `<a href="${UNSUBSCRIBE_SLOT}">Unsubscribe</a> in one click.`,
}
