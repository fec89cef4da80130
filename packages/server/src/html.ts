// Text put into HTML the server writes itself (mails, share pages, the development sign-in
// provider's pages, the unsubscribe page): every character that could open a tag or end an
// attribute, escaped. One function for all of them, so a fix reaches every page.

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** `s` safe as element text or as a double- or single-quoted attribute value. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!)

/**
 * A page the server renders outside the app (the development provider's sign-in, the unsubscribe
 * link's): not for search engines, and with a same-origin referrer policy. Under the app's
 * no-referrer policy a browser sends `Origin: null` with a form's POST, which the origin check
 * rightly refuses; these pages post their own forms. `head` and `body` are HTML, written by the
 * caller with its text escaped.
 */
export const plainPage = (p: {
  title: string
  head: string
  body: string
}): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(p.title)}</title>
${p.head}
</head>
<body>
${p.body}
</body>
</html>
`
