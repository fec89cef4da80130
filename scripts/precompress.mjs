// Brotli and gzip copies of the built web app's text assets beside them, which the server sends to
// browsers that accept them (@fastify/static `preCompressed`). Compressed once after `vite build`
// (packages/web `build`), at the highest levels, so no request pays for it (bench/README.md: the
// landing page's scripts went over the wire uncompressed and dominated Lighthouse's mobile load).
// A step of its own rather than a Vite plugin: it is no part of bundling, and at these levels it
// took half the build inside the bundler.
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import zlib from 'node:zlib'

const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)

const dist = path.resolve(process.argv[2] ?? 'dist')

/** Text assets of at least 1 KiB; .vite/manifest.json is for the server (route preloads), never sent. */
function assets(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === '.vite' ? [] : assets(file)
    if (!/\.(js|css|svg|json|txt)$/.test(entry.name)) return []
    return fs.statSync(file).size < 1024 ? [] : [file]
  })
}

// zlib's asynchronous calls run on libuv's thread pool, so the files compress on every core.
await Promise.all(
  assets(dist).map(async (file) => {
    const body = await fs.promises.readFile(file)
    const [br, gz] = await Promise.all([
      brotli(body, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY },
      }),
      gzip(body, { level: 9 }),
    ])
    await Promise.all([
      fs.promises.writeFile(`${file}.br`, br),
      fs.promises.writeFile(`${file}.gz`, gz),
    ])
  }),
)
