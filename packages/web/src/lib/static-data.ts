import { BOOT_DATA_ELEMENT_ID, type BootStatic } from '@tipping/contract/boot-files'
import type { ChecksumsFile } from '@tipping/contract/static-files'

// The static JSON root (ARCHITECTURE.md): checksums.json first, then only files whose checksum
// changed since they were last fetched.
const cache = new Map<string, { checksum: string; value: unknown }>()
let checksums: Promise<ChecksumsFile> | null = null
let checksumsAt = 0
const CHECKSUMS_TTL_MS = 30_000

/**
 * The checksums and site content the server wrote into the page (BOOT_STATIC_FILES): read as if
 * just fetched, so the first paint waits for none of them. Absent (a page not served by the app
 * server, or unreadable), everything is fetched as usual.
 */
export function adoptBootStatic(doc: Document = document): void {
  const element = doc.getElementById(BOOT_DATA_ELEMENT_ID)
  if (!element?.textContent) return
  let boot: BootStatic
  try {
    boot = JSON.parse(element.textContent) as BootStatic
  } catch {
    return
  }
  checksums = Promise.resolve({ files: boot.checksums })
  checksumsAt = Date.now()
  for (const [file, value] of Object.entries(boot.files)) {
    const checksum = boot.checksums[file]
    if (checksum) cache.set(file, { checksum, value })
  }
}

function loadChecksums(): Promise<ChecksumsFile> {
  if (!checksums || Date.now() - checksumsAt > CHECKSUMS_TTL_MS) {
    checksumsAt = Date.now()
    checksums = fetch('/static/checksums.json', { cache: 'no-cache' })
      .then((r) => (r.ok ? (r.json() as Promise<ChecksumsFile>) : { files: {} }))
      .catch(() => ({ files: {} }))
  }
  return checksums
}

/** Reads under way, by address: a second reader of the same version shares the request. */
const pending = new Map<string, Promise<unknown>>()

/**
 * A static file's JSON, unchecked: read it through the data layer (lib/api.ts), which checks it
 * against the contract's schema outside production. The type parameter is only for the callers
 * not yet moved onto the data layer.
 */
export async function staticJson<T = unknown>(file: string): Promise<T> {
  const sums = await loadChecksums()
  const checksum = sums.files[file] ?? ''
  const hit = cache.get(file)
  if (hit && hit.checksum === checksum && checksum !== '') return hit.value as T
  const url = `/static/${file}${checksum ? `?v=${checksum}` : ''}`
  const shared = pending.get(url)
  if (shared) return shared as Promise<T>
  const read = fetch(url)
    .then(async (res) => {
      if (!res.ok) throw new Error(`Could not load ${file}`)
      const value: unknown = await res.json()
      cache.set(file, { checksum, value })
      return value
    })
    .finally(() => pending.delete(url))
  pending.set(url, read)
  return read as Promise<T>
}

/** Forget cached checksums so the next read revalidates (after a save or on a refresh tick). */
export function invalidateStatic(): void {
  checksums = null
}
