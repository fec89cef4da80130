import { useState } from 'react'
import type { Sport } from '@tipping/contract/constants'
import { readStored, writeStored } from '../../lib/storage.ts'
import { notificationBarFor, useSiteContent } from '../../lib/site-content.tsx'
import styles from './site-parts.module.css'

/** Spec 3 "Local storage": `{sport}_notification_bar` holds the string false once dismissed. */
export const notificationBarKey = (sport: Sport) => `${sport}_notification_bar`
export const isBarDismissed = (sport: Sport): boolean =>
  readStored(notificationBarKey(sport)) === 'false'

/** Spec 2: the dismissible notification bar of a competition (notification_bar.json). */
export function NotificationBar({ sport }: { sport: Sport }) {
  const message = notificationBarFor(useSiteContent(), sport)
  const [dismissed, setDismissed] = useState(() => isBarDismissed(sport))
  if (!message || dismissed) return null
  return (
    <div
      className={styles.notification}
      role="region"
      aria-label="Notice"
      data-testid="notification-bar"
    >
      <p>{message}</p>
      <button
        type="button"
        className={styles.dismiss}
        aria-label="Dismiss notice"
        onClick={() => {
          writeStored(notificationBarKey(sport), 'false')
          setDismissed(true)
        }}
      >
        ×
      </button>
    </div>
  )
}
