import * as Dialog from '@radix-ui/react-dialog'
import type { ReactNode } from 'react'
import styles from './modal.module.css'

interface Props {
  open: boolean
  title: string
  description?: string
  onClose: () => void
  children: ReactNode
}

/**
 * Radix dialog: focus trap, Escape and outside click close it (spec 2: modals). A closed modal
 * renders nothing at all: pages hold several (share, confirm, join prompts), and mounting Radix's
 * closed dialogs cost the tipping page ~180 ms of a phone's main thread (Lighthouse, 4x CPU
 * slowdown). There is no closing animation to lose.
 */
export function Modal({ open, title, description, onClose, children }: Props) {
  if (!open) return null
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} data-modal-overlay />
        <Dialog.Content
          className={styles.content}
          aria-describedby={description ? undefined : undefined}
        >
          <div className={styles.header}>
            <Dialog.Title className={styles.title}>{title}</Dialog.Title>
            <Dialog.Close className={styles.close} aria-label="Close">
              ×
            </Dialog.Close>
          </div>
          {description ? (
            <Dialog.Description className={styles.description}>{description}</Dialog.Description>
          ) : (
            <Dialog.Description className="visually-hidden">{title}</Dialog.Description>
          )}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
