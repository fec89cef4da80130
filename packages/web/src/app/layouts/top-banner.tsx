import { Link } from 'react-router'
import { useSiteContent } from '../../lib/site-content.tsx'
import styles from './site-parts.module.css'

/** Spec 2 "Top banner message": one line over every page, a link when one is set. */
export function TopBanner() {
  const { topBanner } = useSiteContent().config
  if (!topBanner) return null
  const { message, url } = topBanner
  return (
    <div className={styles.topBanner} data-testid="top-banner">
      {url === null ? (
        <span>{message}</span>
      ) : url.startsWith('/') ? (
        <Link to={url}>{message}</Link>
      ) : (
        <a href={url} target="_blank" rel="noopener noreferrer">
          {message}
        </a>
      )}
    </div>
  )
}
