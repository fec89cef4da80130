import type { AddressInfo } from 'node:net'
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export interface CaughtMail {
  /** Envelope recipients, as the deliverer gave them to the server. */
  to: string[]
  mail: ParsedMail
}

export interface SmtpCatcher {
  port: number
  url: string
  messages: CaughtMail[]
  close(): Promise<void>
}

/**
 * A real SMTP server on 127.0.0.1 that keeps what it receives (parsed). Recipients at
 * `bounce.test` are refused with a permanent 550; `delayMs` slows each accepted message down so
 * concurrent deliverers overlap.
 */
export async function startSmtpCatcher(
  opts: { port?: number; delayMs?: number } = {},
): Promise<SmtpCatcher> {
  const messages: CaughtMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    closeTimeout: 200,
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@bounce.test')) {
        callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }))
        return
      }
      callback()
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then(async (mail) => {
          if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs))
          messages.push({ to: session.envelope.rcptTo.map((r) => r.address), mail })
          callback()
        })
        .catch((err: Error) => callback(err))
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject)
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve())
  })
  const port = (server.server.address() as AddressInfo).port
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
