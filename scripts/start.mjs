// `npm start`: install what is missing, build the web app, then run the server, which migrates,
// seeds the demo season on an empty database and serves everything on http://localhost:3000.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { buildWeb, ensureDependencies, root } from './prepare.mjs'
import { SERVER_NODE_FLAGS } from './server-flags.mjs'

ensureDependencies()
buildWeb()
const server = spawn(
  process.execPath,
  [...SERVER_NODE_FLAGS, path.join(root, 'packages/server/src/main.ts')],
  {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  },
)
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
