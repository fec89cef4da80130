import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'

/** A folder of published files: atomic writes (temp file then rename) and content hashes. */
export class StaticStore {
  constructor(readonly root: string) {}

  /** Writes only when the content changed, so ETags and CDN caches stay valid. */
  async write(relative: string, content: Buffer | string): Promise<string> {
    const target = path.join(this.root, relative)
    const data = typeof content === 'string' ? Buffer.from(content) : content
    const digest = createHash('sha256').update(data).digest('hex').slice(0, 16)
    const existing = await fs.readFile(target).catch(() => null)
    if (existing && existing.equals(data)) return digest
    await fs.mkdir(path.dirname(target), { recursive: true })
    const temp = `${target}.${process.pid}.${Date.now()}.tmp`
    await fs.writeFile(temp, data)
    await fs.rename(temp, target)
    return digest
  }

  writeJson(relative: string, value: unknown): Promise<string> {
    return this.write(relative, `${JSON.stringify(value)}\n`)
  }
}
