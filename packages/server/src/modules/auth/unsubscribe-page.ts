import { SITE_NAME } from '@tipping/contract/constants'
import { escapeHtml, plainPage } from '../../html.ts'
import { LIST_LABEL, type MailList } from '../mail/unsubscribe.ts'

// The pages of `/unsubscribe/{token}` (routes.ts), the link in a list email's List-Unsubscribe
// header (decision 043): the question a GET shows, the answer to the POST, and a bad link's.

// The game's look in a few rules (the app's colours, a readable column, a 44 px button), inline
// with a nonce the answer's policy allows: the page is served by the API, not the web build.
const STYLE = `
:root { color-scheme: light dark; --brand: #0b1f3a; --accent: #c2410c; --ink: #14181f;
  --muted: #4b5563; --page: #f5f7fa; --card: #ffffff; }
@media (prefers-color-scheme: dark) {
  :root { --brand: #1a3a68; --accent: #fdba74; --ink: #e8ecf2; --muted: #b6c0cf; --page: #0d1117;
    --card: #161b22; }
}
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
  color: var(--ink); background: var(--page); }
header { background: var(--brand); color: #fff; padding: 14px 16px; font-weight: 700; }
main { box-sizing: border-box; width: calc(100% - 24px); max-width: 34rem; margin: 24px auto;
  padding: 20px 16px; background: var(--card); border-radius: 12px; }
h1 { font-size: 1.4rem; line-height: 1.3; margin: 0 0 12px; }
p { margin: 0 0 16px; color: var(--muted); }
button { min-height: 44px; padding: 0 20px; border: 0; border-radius: 999px; font: inherit;
  font-weight: 700; color: #fff; background: #c2410c; cursor: pointer; }
button:focus-visible, a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
a { color: inherit; display: inline-block; padding: 10px 0; }
`

const page = (title: string, body: string, nonce: string | undefined): string =>
  plainPage({
    title: `${title} · ${SITE_NAME}`,
    head: `<style${nonce ? ` nonce="${nonce}"` : ''}>${STYLE}</style>`,
    body: `<header>${SITE_NAME}</header>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
<p><a href="/">Back to ${SITE_NAME}</a></p>
</main>`,
  })

const settings = 'You can change every email setting in your account (Account, after you log in).'

export const invalidLinkPage = (nonce: string | undefined) =>
  page(
    'This unsubscribe link is not valid',
    `<p>It may be incomplete: open it again from the email. ${settings}</p>`,
    nonce,
  )

export const askPage = (list: MailList, nonce: string | undefined) =>
  page(
    `Stop ${LIST_LABEL[list]}?`,
    `<p>This account will get no more ${LIST_LABEL[list]}. ${settings}</p>
<form method="post">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Unsubscribe</button>
</form>`,
    nonce,
  )

export const donePage = (list: MailList, nonce: string | undefined) =>
  page(
    'You are unsubscribed',
    `<p>This account will get no more ${LIST_LABEL[list]}. To have them again, turn them on in your account.</p>`,
    nonce,
  )
