import { useCallback, useEffect, useRef, useState } from 'react'
import { CONFIRMATION_DELAY_MS } from '@tipping/contract/constants'

/** Spec 4: a success message that clears itself after 2000 ms. */
export function useFlash(): [string | null, (message: string) => void] {
  const [message, setMessage] = useState<string | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current)
    },
    [],
  )
  const show = useCallback((text: string) => {
    setMessage(text)
    if (timer.current) clearTimeout(timer.current)
    timer.current = setTimeout(() => setMessage(null), CONFIRMATION_DELAY_MS)
  }, [])
  return [message, show]
}
