import type { Browser } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { launchBrowser, useServer } from './browser.ts'
import { startServer, type ServerOptions, type TestServer } from './server.ts'

export interface OwnServer {
  /** The spec's own server (its base URL, its mail catcher's folder); read it inside a test. */
  readonly server: TestServer
  /** A browser whose new pages (browser.ts `newPage`) open on that server. */
  readonly browser: Browser
}

/**
 * A server of the spec's own, with a database of its own (server.ts), and a browser pointed at
 * it: started before the spec file's first test and stopped after its last. For a spec whose
 * changes would reach the shared server's other specs (a server clock moved past a lockout, a
 * match locked for good, the demo's league removed). Each spec says why beside its call; what it
 * needs of the server differently goes in `options`.
 */
export function useOwnServer(options: ServerOptions = {}): OwnServer {
  let server: TestServer | undefined
  let browser: Browser | undefined
  beforeAll(async () => {
    server = await startServer(options)
    useServer(server.baseURL)
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })
  const started = <T>(what: T | undefined): T => {
    if (what === undefined) throw new Error("The spec's own server is not started yet")
    return what
  }
  return {
    get server() {
      return started(server)
    },
    get browser() {
      return started(browser)
    },
  }
}
