import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { SITE_NAME } from '@tipping/contract/constants'
import { escapeHtml } from '../../html.ts'
import type { App } from '../../http/types.ts'
import { LIST_LABEL, readUnsubscribeToken, type MailList } from '../mail/unsubscribe.ts'
import type { AuthService } from './service.ts'

// `/unsubscribe/{token}`, the link in a list email's List-Unsubscribe header (decision 043).
// POST (RFC 8058 one-click, made by the mail provider, or by this page's button) turns the list
// off; GET only asks, since link scanners and previews open links by GET.

const paramsSchema = z.object({ token: z.string().max(100) })

const page = (title: string, body: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · ${SITE_NAME}</title>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
<p><a href="/">Back to ${SITE_NAME}</a></p>
</main>
</body>
</html>
`

const settings = 'You can change every email setting in your account (Account, after you log in).'

const invalid = page(
  'This unsubscribe link is not valid',
  `<p>It may be incomplete: open it again from the email. ${settings}</p>`,
)

const ask = (list: MailList) =>
  page(
    `Stop ${LIST_LABEL[list]}?`,
    `<p>This account will get no more ${LIST_LABEL[list]}. ${settings}</p>
<form method="post">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Unsubscribe</button>
</form>`,
  )

const done = (list: MailList) =>
  page(
    'You are unsubscribed',
    `<p>This account will get no more ${LIST_LABEL[list]}. To have them again, turn them on in your account.</p>`,
  )

export async function unsubscribeRoutes(
  app: App,
  deps: { auth: AuthService; secret: string },
): Promise<void> {
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>()
    // RFC 8058: the provider posts `List-Unsubscribe=One-Click` as a form, urlencoded or
    // multipart. The token in the path is all this route reads, so the body is taken as text and
    // left alone (its size capped).
    scope.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'multipart/form-data'],
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, doneParsing) => doneParsing(null, body),
    )
    const html = (reply: { type(t: string): unknown }) => reply.type('text/html; charset=utf-8')

    scope.get(
      '/unsubscribe/:token',
      { config: { policy: 'visitor' }, schema: { hide: true, params: paramsSchema } },
      async (request, reply) => {
        const found = readUnsubscribeToken(deps.secret, request.params.token)
        html(reply)
        void reply.header('cache-control', 'no-store')
        return found ? ask(found.list) : reply.status(404).send(invalid)
      },
    )

    scope.post(
      '/unsubscribe/:token',
      { config: { policy: 'visitor' }, schema: { hide: true, params: paramsSchema } },
      async (request, reply) => {
        const found = readUnsubscribeToken(deps.secret, request.params.token)
        html(reply)
        void reply.header('cache-control', 'no-store')
        if (!found || !(await deps.auth.unsubscribe(found.userId, found.list))) {
          return reply.status(404).send(invalid)
        }
        return done(found.list)
      },
    )
  })
}
