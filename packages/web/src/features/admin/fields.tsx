import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react'
import { Button } from '../../ui/button.tsx'
import styles from './admin.module.css'

// Labelled inputs with their error, for the console's dense forms.

interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string
  error?: string | undefined
}

export function Field({ label, error, ...input }: InputProps) {
  const id = useId()
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className={styles.input}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...input}
      />
      {error ? (
        <span id={`${id}-error`} className={styles.error} role="alert">
          {error}
        </span>
      ) : null}
    </div>
  )
}

interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string
  error?: string | undefined
  children: ReactNode
}

export function SelectField({ label, error, children, ...select }: SelectProps) {
  const id = useId()
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className={styles.select}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...select}
      >
        {children}
      </select>
      {error ? (
        <span id={`${id}-error`} className={styles.error} role="alert">
          {error}
        </span>
      ) : null}
    </div>
  )
}

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

export function Pager({
  page,
  nextPage,
  onPage,
}: {
  page: number
  nextPage: number | null
  onPage: (page: number) => void
}) {
  return (
    <nav className={styles.row} aria-label="Pages">
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span className={styles.meta}>Page {page}</span>
      <Button
        variant="secondary"
        disabled={nextPage === null}
        onClick={() => nextPage && onPage(nextPage)}
      >
        Next
      </Button>
    </nav>
  )
}
