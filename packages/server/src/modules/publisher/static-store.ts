import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'

/** The checksum a client compares: the first 16 hex digits of the content's SHA-256. */
const digestOf = (data: Buffer) => createHash('sha256').update(data).digest('hex').slice(0, 16)

const TEMP_SUFFIX = '.tmp'

/** A folder of published files: atomic writes (temp file then rename) and content hashes. */
export class StaticStore {
  constructor(readonly root: string) {}

  /** Writes only when the content changed, so ETags and CDN caches stay valid. */
  async write(relative: string, content: Buffer | string): Promise<string> {
    const target = path.join(this.root, relative)
    const data = typeof content === 'string' ? Buffer.from(content) : content
    const digest = digestOf(data)
    const existing = await fs.readFile(target).catch(() => null)
    if (existing && existing.equals(data)) return digest
    await fs.mkdir(path.dirname(target), { recursive: true })
    const temp = `${target}.${process.pid}.${Date.now()}${TEMP_SUFFIX}`
    await fs.writeFile(temp, data)
    await fs.rename(temp, target)
    return digest
  }

  writeJson(relative: string, value: unknown): Promise<string> {
    return this.write(relative, `${JSON.stringify(value)}\n`)
  }

  /**
   * The checksum of every file in the folder now, by relative path with forward slashes, sorted;
   * `except` (checksums.json itself) and temp files of an unfinished write are left out.
   */
  async checksums(except: string): Promise<Record<string, string>> {
    const entries = await fs.readdir(this.root, { recursive: true, withFileTypes: true })
    const files = entries
      .filter((e) => e.isFile() && !e.name.endsWith(TEMP_SUFFIX))
      .map((e) =>
        path.relative(this.root, path.join(e.parentPath, e.name)).split(path.sep).join('/'),
      )
      .filter((relative) => relative !== except)
      .sort((a, b) => a.localeCompare(b))
    const sums: Record<string, string> = {}
    for (const relative of files)
      sums[relative] = digestOf(await fs.readFile(path.join(this.root, relative)))
    return sums
  }
}
