import type { ReactNode } from 'react'
import styles from './site.module.css'

/** A phone with a download arrow: our own mark for the App Store (no store's artwork is used). */
function PhoneGlyph() {
  return (
    <svg className={styles.storeGlyph} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <rect
        x="5"
        y="1.5"
        width="14"
        height="21"
        rx="3"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
      />
      <path
        d="M12 6.5 V14 M8.8 11 L12 14.3 L15.2 11"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <path d="M9.5 18.5 H14.5" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
    </svg>
  )
}

/** A rounded play triangle: our own mark for Google Play (no store's artwork is used). */
function PlayGlyph() {
  return (
    <svg className={styles.storeGlyph} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M6.5 3.8 C6.5 2.9 7.5 2.4 8.2 2.9 L19.6 10.9 C20.3 11.4 20.3 12.6 19.6 13.1 L8.2 21.1 C7.5 21.6 6.5 21.1 6.5 20.2 Z"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinejoin="round"
      />
      <path d="M6.8 3.4 L14.6 12 L6.8 20.6" fill="none" stroke="currentColor" strokeWidth="1.4" />
    </svg>
  )
}

function StoreBadge({
  href,
  glyph,
  small,
  big,
}: {
  href: string
  glyph: ReactNode
  small: string
  big: string
}) {
  return (
    // Two lines as on a store badge; the label makes the link's name one phrase ("Download on the
    // App Store"), which browsers would otherwise run together across the lines.
    <a
      className={styles.store}
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={`${small} ${big}`}
    >
      {glyph}
      <span className={styles.storeText}>
        <span className={styles.storeSmall}>{small}</span>
        <span className={styles.storeBig}>{big}</span>
      </span>
    </a>
  )
}

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
        <StoreBadge
          href={appStoreUrl}
          glyph={<PhoneGlyph />}
          small="Download on the"
          big="App Store"
        />
      ) : null}
      {playStoreUrl ? (
        <StoreBadge href={playStoreUrl} glyph={<PlayGlyph />} small="Get it on" big="Google Play" />
      ) : null}
    </nav>
  )
}
