import { useOffline } from '../../lib/offline-status.ts'
import styles from './offline-banner.module.css'

/**
 * Issue 32: while the browser is offline, or the last call to the server got no answer (or the
 * service worker's copy as last seen), a banner says what the page shows and what becomes of a
 * pick. It goes when an answer comes again.
 */
export function OfflineBanner() {
  const offline = useOffline()
  if (!offline) return null
  return (
    <div className={styles.banner} role="status" data-testid="offline-banner">
      <strong>You are offline.</strong> Showing your tips and leagues as last seen. Picks you save
      now are kept on this device and sent when you are back online.
    </div>
  )
}
