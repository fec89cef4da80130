import fs from 'node:fs'
import type { TestProject } from 'vitest/node'
import { startServer } from './server.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string
    /** Where the mail catcher writes what the server sends (see mail-catcher.ts). */
    mailDir: string
  }
}

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** The server every spec shares, unless it starts its own (see server.ts). */
export default async function setup(project: TestProject) {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `End-to-end tests need Debian's Chromium at ${CHROMIUM}: apt-get install chromium`,
    )
  }
  const server = await startServer()
  project.provide('baseURL', server.baseURL)
  project.provide('mailDir', server.mailDir)
  return () => server.stop()
}
