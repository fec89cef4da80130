import styles from './admin.module.css'

/** A form's outcome: its error (announced at once) or its confirmation. */
export function FormMessage({ error, ok }: { error?: string | undefined; ok?: string | null }) {
  if (error)
    return (
      <p className={styles.error} role="alert">
        {error}
      </p>
    )
  if (ok)
    return (
      <p className={styles.ok} role="status">
        {ok}
      </p>
    )
  return null
}
