import Fastify from 'fastify'

// The yardstick: a bare Fastify hello-world route, measured in the same run on the same machine,
// so every scenario can be read as a fraction of what the framework alone serves here.

const port = Number(process.argv[2] ?? 3551)
const app = Fastify({ logger: false })
app.get('/hello', async () => ({ hello: 'world' }))
await app.listen({ port, host: '127.0.0.1' })
console.log(`hello listening on ${port}`)
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0))
})
