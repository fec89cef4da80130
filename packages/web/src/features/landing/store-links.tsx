import styles from './site.module.css'

/** Spec 2: store links for the official app; a store without a configured link is left out. */
export function StoreLinks({
  appStoreUrl,
  playStoreUrl,
}: {
  appStoreUrl: string | null
  playStoreUrl: string | null
}) {
  if (!appStoreUrl && !playStoreUrl) return null
  return (
    <nav className={styles.stores} aria-label="Get the official app">
      {appStoreUrl ? (
        <a className={styles.store} href={appStoreUrl} target="_blank" rel="noopener noreferrer">
          Download on the App Store
        </a>
      ) : null}
      {playStoreUrl ? (
        <a className={styles.store} href={playStoreUrl} target="_blank" rel="noopener noreferrer">
          Get it on Google Play
        </a>
      ) : null}
    </nav>
  )
}
