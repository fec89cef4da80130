import type { ButtonHTMLAttributes } from 'react'
import styles from './button.module.css'

interface Props extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'ghost'
  block?: boolean
}

export function Button({
  variant = 'primary',
  block = false,
  className,
  type = 'button',
  ...rest
}: Props) {
  const classes = [styles.button, styles[variant], block ? styles.block : '', className ?? ''].join(
    ' ',
  )
  return <button type={type} className={classes} {...rest} />
}
