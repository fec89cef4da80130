import { useCallback, useEffect, useState } from 'react'

/** Loads once per change of `deps`, with reload; the error is the message to show. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]) {
  const [data, setData] = useState<T | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [tick, setTick] = useState(0)
  const stable = useCallback(load, deps)
  useEffect(() => {
    let live = true
    setError(null)
    stable()
      .then((d) => live && setData(d))
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : 'Could not load'))
    return () => {
      live = false
    }
  }, [stable, tick])
  const reload = useCallback(() => setTick((t) => t + 1), [])
  return { data, error, reload, setData }
}
