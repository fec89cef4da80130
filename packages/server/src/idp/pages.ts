// The development provider's pages: plain server-rendered HTML (html.ts plainPage, whose
// referrer policy lets their form posts name their origin) with one same-origin stylesheet, no
// inline style or script, so they pass the app's Content-Security-Policy unchanged.

import { escapeHtml, plainPage } from '../html.ts'

export const IDP_STYLESHEET = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#0b1f3a;color:#10203a}
main{max-width:26rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:12px}
h1{font-size:1.4rem;margin:0 0 .25rem}
p{margin:.25rem 0 1rem}
.note{font-size:.875rem;color:#4a5a70}
.error{background:#fde8e8;color:#8a1010;padding:.5rem .75rem;border-radius:6px}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{width:100%;padding:.6rem .7rem;font:inherit;border:1px solid #8090a8;border-radius:6px}
button{display:block;width:100%;margin-top:1.25rem;padding:.7rem;font:inherit;font-weight:700;border:0;border-radius:6px;background:#e4007c;color:#fff;cursor:pointer}
button.secondary{background:#e8ecf2;color:#10203a}
dl{font-size:.875rem}dt{font-weight:600}dd{margin:0 0 .5rem}
`

function page(title: string, stylesheet: string, body: string): string {
  return plainPage({
    title,
    head: `<link rel="stylesheet" href="${escapeHtml(stylesheet)}">`,
    body: `<main>\n${body}\n</main>`,
  })
}

export function signInPage(opts: {
  stylesheet: string
  action: string
  clientName: string
  email?: string
  error?: string
}): string {
  return page(
    'Sign in with Big Bash Account',
    opts.stylesheet,
    `<h1>Big Bash Account</h1>
<p>Sign in to continue to ${escapeHtml(opts.clientName)}.</p>
<p class="note">Development identity provider: seeded accounts only.</p>
${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}
<form method="post" action="${escapeHtml(opts.action)}" autocomplete="on">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(opts.email ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`,
  )
}

export function errorPage(stylesheet: string, fields: Record<string, string>): string {
  const rows = Object.entries(fields)
    .map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`)
    .join('')
  return page(
    'Sign-in problem',
    stylesheet,
    `<h1>Something went wrong</h1>
<p>The identity provider could not complete this request.</p>
<dl>${rows}</dl>`,
  )
}

/** `form` is oidc-provider's own hidden form (its id, action and xsrf field). */
export function logoutPage(stylesheet: string, form: string): string {
  return page(
    'Sign out',
    stylesheet,
    `<h1>Sign out of Big Bash Account?</h1>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign me out</button>
<button type="submit" form="op.logoutForm" class="secondary">No, stay signed in</button>`,
  )
}

export function loggedOutPage(stylesheet: string): string {
  return page(
    'Signed out',
    stylesheet,
    `<h1>Signed out</h1><p>You have signed out of your Big Bash Account.</p>`,
  )
}
