import { Button } from '../../ui/button.tsx'
import type { SaveStatus } from './picks-slice.ts'
import styles from './footer-bar.module.css'

interface Props {
  picked: number
  total: number
  saveStatus: SaveStatus
  canSave: boolean
  onSave: () => void
}

const LABEL: Record<SaveStatus, string> = {
  idle: 'Save',
  saving: 'Saving…',
  saved: 'Saved ✓',
  failed: 'Save',
}

export function FooterBar({ picked, total, saveStatus, canSave, onSave }: Props) {
  return (
    <div className={styles.bar}>
      <div className={styles.count}>
        <span className={styles.countLabel}>Selected picks</span>
        <span className={styles.countValue} data-testid="selected-picks">
          {picked}/{total}
        </span>
      </div>
      <Button
        className={styles.save}
        data-testid="save-picks"
        disabled={!canSave || saveStatus === 'saving'}
        onClick={onSave}
        aria-live="polite"
      >
        {LABEL[saveStatus]}
      </Button>
    </div>
  )
}
