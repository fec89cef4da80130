import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Registry } from 'prom-client'

export interface MetricsServer {
  /** Where it listens, e.g. http://127.0.0.1:9464 (the port the system gave when asked for 0). */
  url: string
  close(): Promise<void>
}

/**
 * The metrics listener: its own HTTP server on METRICS_HOST:METRICS_PORT (loopback unless the
 * operator says otherwise), apart from the public port, so no proxy rule or forged header can
 * reach it from outside. It answers GET /metrics and 404 to everything else.
 */
export async function serveMetrics(
  registry: Registry,
  at: { host: string; port: number },
): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?', 1)[0]
    if ((req.method !== 'GET' && req.method !== 'HEAD') || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n')
      return
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType })
        res.end(req.method === 'HEAD' ? undefined : text)
      },
      (err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' })
        res.end(`Metrics failed: ${err instanceof Error ? err.message : String(err)}\n`)
      },
    )
  })
  // A scraper's idle keep-alive connection must not hold the process open at shutdown.
  server.keepAliveTimeout = 5_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(at.port, at.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
