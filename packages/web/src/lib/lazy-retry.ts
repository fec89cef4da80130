import { LAZY_RETRY_COUNT, LAZY_RETRY_DELAY_MS } from '@tipping/contract/constants'

/** Spec 2: lazy page loading retries up to 5 times, 1 second apart, then fails. */
export async function retryImport<T>(
  load: () => Promise<T>,
  tries = LAZY_RETRY_COUNT,
  delayMs = LAZY_RETRY_DELAY_MS,
): Promise<T> {
  let lastError: unknown
  for (let attempt = 0; attempt < tries; attempt++) {
    try {
      return await load()
    } catch (err) {
      lastError = err
      if (attempt < tries - 1) await new Promise((r) => setTimeout(r, delayMs))
    }
  }
  throw lastError instanceof Error ? lastError : new Error('Page failed to load')
}
