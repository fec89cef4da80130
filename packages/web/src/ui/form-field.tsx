import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react'
import styles from './form-field.module.css'

// Labelled controls with their error: an input, a select, a text area. `compact` drops the space
// under the field, for forms that lay their fields out in a grid with its own gaps.

interface Common {
  label: string
  error?: string | null | undefined
  compact?: boolean
}

/** The label, the control (given its id and error wiring) and the error under it. */
function Labelled({
  label,
  error,
  compact,
  control,
}: Common & {
  control: (a11y: { id: string; invalid?: true; describedBy?: string }) => ReactNode
}) {
  const id = useId()
  const errorId = `${id}-error`
  return (
    <div className={compact ? `${styles.field} ${styles.compact}` : styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      {control(error ? { id, invalid: true, describedBy: errorId } : { id })}
      {error ? (
        <span id={errorId} className={styles.error} role="alert">
          {error}
        </span>
      ) : null}
    </div>
  )
}

type InputProps = Common & InputHTMLAttributes<HTMLInputElement>

export function FormField({ label, error, compact, ...input }: InputProps) {
  return (
    <Labelled
      label={label}
      error={error}
      compact={compact}
      control={({ id, invalid, describedBy }) => (
        <input
          id={id}
          className={styles.input}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          {...input}
        />
      )}
    />
  )
}

type SelectProps = Common & SelectHTMLAttributes<HTMLSelectElement> & { children: ReactNode }

export function SelectField({ label, error, compact, children, ...select }: SelectProps) {
  return (
    <Labelled
      label={label}
      error={error}
      compact={compact}
      control={({ id, invalid, describedBy }) => (
        <select
          id={id}
          className={styles.input}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          {...select}
        >
          {children}
        </select>
      )}
    />
  )
}

type TextAreaProps = Common & TextareaHTMLAttributes<HTMLTextAreaElement>

export function TextAreaField({ label, error, compact, ...area }: TextAreaProps) {
  return (
    <Labelled
      label={label}
      error={error}
      compact={compact}
      control={({ id, invalid, describedBy }) => (
        <textarea
          id={id}
          className={`${styles.input} ${styles.textarea}`}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          {...area}
        />
      )}
    />
  )
}
