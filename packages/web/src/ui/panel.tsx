import type { ReactNode } from 'react'
import styles from './panel.module.css'

export function Panel({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className={styles.panel}>
      <h1>{title}</h1>
      {children}
    </section>
  )
}
