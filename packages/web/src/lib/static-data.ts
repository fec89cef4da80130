import type { ChecksumsFile } from '@tipping/contract/static-files'

// The static JSON root (ARCHITECTURE.md): checksums.json first, then only files whose checksum
// changed since they were last fetched.
const cache = new Map<string, { checksum: string; value: unknown }>()
let checksums: Promise<ChecksumsFile> | null = null
let checksumsAt = 0
const CHECKSUMS_TTL_MS = 30_000

function loadChecksums(): Promise<ChecksumsFile> {
  if (!checksums || Date.now() - checksumsAt > CHECKSUMS_TTL_MS) {
    checksumsAt = Date.now()
    checksums = fetch('/static/checksums.json', { cache: 'no-cache' })
      .then((r) => (r.ok ? (r.json() as Promise<ChecksumsFile>) : { files: {} }))
      .catch(() => ({ files: {} }))
  }
  return checksums
}

export async function staticJson<T>(file: string): Promise<T> {
  const sums = await loadChecksums()
  const checksum = sums.files[file] ?? ''
  const hit = cache.get(file)
  if (hit && hit.checksum === checksum && checksum !== '') return hit.value as T
  const res = await fetch(`/static/${file}${checksum ? `?v=${checksum}` : ''}`)
  if (!res.ok) throw new Error(`Could not load ${file}`)
  const value = (await res.json()) as T
  cache.set(file, { checksum, value })
  return value
}

/** Forget cached checksums so the next read revalidates (after a save or on a refresh tick). */
export function invalidateStatic(): void {
  checksums = null
}
