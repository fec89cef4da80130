// Text put into HTML the server writes itself (mails, share pages, the development sign-in
// provider's pages): every character that could open a tag or end an attribute, escaped. One
// function for all of them, so a fix reaches every page.

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** `s` safe as element text or as a double- or single-quoted attribute value. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!)
