import { useId, type InputHTMLAttributes } from 'react'
import styles from './form-field.module.css'

interface Props extends InputHTMLAttributes<HTMLInputElement> {
  label: string
  name: string
  error?: string | null
}

export function FormField({ label, name, error, ...input }: Props) {
  const id = useId()
  const errorId = `${id}-error`
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        name={name}
        className={styles.input}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...input}
      />
      {error ? (
        <span id={errorId} className={styles.error} role="alert">
          {error}
        </span>
      ) : null}
    </div>
  )
}
