import type { ReactNode } from 'react'
import styles from './panel.module.css'
import { usePageTitle } from '../lib/page-title.ts'

export function Panel({ title, children }: { title: string; children?: ReactNode }) {
  usePageTitle(title)
  return (
    <section className={styles.panel}>
      <h1>{title}</h1>
      {children}
    </section>
  )
}
