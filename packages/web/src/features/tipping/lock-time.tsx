import { formatClockMs } from './receipt-format.ts'
import styles from './receipt.module.css'

/** When the server locked the match, as its lockout recorded it (decision 027). */
export function LockTime({ lockedAt }: { lockedAt: string | null | undefined }) {
  if (!lockedAt) return null
  return (
    <p className={styles.lockTime} data-testid="lock-time">
      Locked at <time dateTime={lockedAt}>{formatClockMs(lockedAt)}</time> UTC
    </p>
  )
}
