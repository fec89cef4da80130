import fs from 'node:fs'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export interface CaughtMail {
  to: string[]
  subject: string
  text: string
  /** The HTML part, when the message has one. */
  html?: string
}

/**
 * A real SMTP server for the end-to-end server to send through. Each message is written to `dir`
 * as JSON, so spec files (in other processes) can read what arrived.
 */
export async function startMailCatcher(
  dir: string,
): Promise<{ url: string; close(): Promise<void> }> {
  fs.mkdirSync(dir, { recursive: true })
  let count = 0
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const caught: CaughtMail = {
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            ...(typeof mail.html === 'string' ? { html: mail.html } : {}),
          }
          fs.writeFileSync(path.join(dir, `${Date.now()}-${++count}.json`), JSON.stringify(caught))
          callback()
        })
        .catch((err: Error) => callback(err))
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Waits for a message to `to` to arrive in `dir`. */
export async function waitForMail(
  dir: string,
  to: string,
  timeoutMs = 20_000,
  /** Only a mail this accepts (another sport's reminder may reach the same address first). */
  which: (mail: CaughtMail) => boolean = () => true,
): Promise<CaughtMail> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    for (const file of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
      const mail = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as CaughtMail
      if (mail.to.includes(to) && which(mail)) return mail
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 250))
  }
}
