// The page a share link answers with: Open Graph and card metadata for the networks' link
// previews, and a redirect that takes people into the app.

import { SITE_NAME } from '@tipping/contract/constants'
import { escapeHtml } from '../../html.ts'

export interface SharePage {
  title: string
  description: string
  /** Absolute URL of the preview image. */
  image: string
  /** Absolute URL of the share link itself. */
  url: string
  /** In-app path people are sent on to. */
  target: string
}

export function renderSharePage(p: SharePage): string {
  const [title, description, image, url, target] = [
    p.title,
    p.description,
    p.image,
    p.url,
    p.target,
  ].map(escapeHtml)
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="description" content="${description}">
<meta property="og:type" content="website">
<meta property="og:site_name" content="${SITE_NAME}">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
<meta property="og:image" content="${image}">
<meta property="og:image:width" content="1200">
<meta property="og:image:height" content="630">
<meta property="og:url" content="${url}">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:title" content="${title}">
<meta name="twitter:description" content="${description}">
<meta name="twitter:image" content="${image}">
<meta http-equiv="refresh" content="0; url=${target}">
</head>
<body>
<p><a href="${target}">Continue to ${SITE_NAME}</a></p>
</body>
</html>
`
}
