import { useState } from 'react'
import { Button } from '../../ui/button.tsx'
import { ConfirmModal } from '../../ui/confirm-modal.tsx'
import type { SaveStatus } from './picks-slice.ts'
import styles from './footer-bar.module.css'

interface Props {
  picked: number
  total: number
  /** Every match still open has a pick (started matches can no longer be picked). */
  allOpenPicked: boolean
  saveStatus: SaveStatus
  canSave: boolean
  /** Spec 4: a COMPLETE round blocks saving and Clear All. */
  roundComplete: boolean
  busy: boolean
  onSave: () => void
  onAutopick: () => void
  onClearAll: () => void
  /** Why the last save was refused when the Error modal leaves it out (a match locked: 409). */
  refusal?: string | null
  onDismissRefusal?: () => void
}

const LABEL: Record<SaveStatus, string> = {
  idle: 'Save',
  saving: 'Saving…',
  saved: 'Saved ✓',
  failed: 'Save',
  queued: 'Kept ✓',
}

/** Selected picks, Autopick (until all are picked) or a tick and Clear All, and Save. */
export function FooterBar(p: Props) {
  const [confirming, setConfirming] = useState(false)
  const allPicked = p.allOpenPicked
  return (
    <div className={styles.bar}>
      {p.refusal ? (
        <div className={styles.refusal} role="alert">
          <p>{p.refusal}. Your picks are as last saved.</p>
          <Button variant="secondary" onClick={p.onDismissRefusal}>
            OK
          </Button>
        </div>
      ) : null}
      <div className={styles.count}>
        <span className={styles.countLabel}>Selected picks</span>
        <span className={styles.countValue} data-testid="selected-picks">
          {allPicked ? <span aria-label="All picked">✓ </span> : null}
          {p.picked}/{p.total}
        </span>
      </div>
      <div className={styles.actions}>
        {allPicked ? (
          <Button
            variant="secondary"
            data-testid="clear-all"
            disabled={p.roundComplete || p.busy}
            onClick={() => setConfirming(true)}
          >
            Clear All
          </Button>
        ) : (
          <Button
            variant="secondary"
            data-testid="autopick"
            disabled={p.busy || p.roundComplete}
            onClick={p.onAutopick}
          >
            Autopick
          </Button>
        )}
        <Button
          className={styles.save}
          data-testid="save-picks"
          disabled={!p.canSave || p.saveStatus === 'saving'}
          onClick={p.onSave}
        >
          {LABEL[p.saveStatus]}
        </Button>
      </div>
      <ConfirmModal
        open={confirming}
        title="Clear all picks?"
        question="Are you sure you want to clear all picks made?"
        onYes={() => {
          setConfirming(false)
          p.onClearAll()
        }}
        onNo={() => setConfirming(false)}
      />
    </div>
  )
}
