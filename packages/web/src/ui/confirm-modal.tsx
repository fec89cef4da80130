import { Button } from './button.tsx'
import { Modal } from './modal.tsx'
import styles from './modal.module.css'

interface Props {
  open: boolean
  title: string
  question: string
  onYes: () => void
  onNo: () => void
  busy?: boolean
}

/** Spec 2 "confirm" modal: a question with Yes and No. */
export function ConfirmModal({ open, title, question, onYes, onNo, busy = false }: Props) {
  return (
    <Modal open={open} title={title} onClose={onNo}>
      <p>{question}</p>
      <div className={styles.confirm}>
        <Button data-testid="confirm-yes" disabled={busy} onClick={onYes}>
          Yes
        </Button>
        <Button variant="secondary" data-testid="confirm-no" onClick={onNo}>
          No
        </Button>
      </div>
    </Modal>
  )
}
