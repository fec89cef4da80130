import { useState } from 'react'
import { Link } from 'react-router'
import type { Sport } from '@tipping/contract/constants'
import { useCurrentUser } from '../../lib/use-current-user.ts'
import { Button } from '../../ui/button.tsx'
import { formatInstantMs, receiptText, shortReceiptId } from './receipt-format.ts'
import { useLastReceiptQuery } from './receipts-api.ts'
import styles from './receipt.module.css'

const LABEL = { save: 'Last save', autopick: 'Last autopick', clear: 'Last clear' } as const

/**
 * The receipt of the last save, autopick or clear made on this device (decisions 027, 029), and
 * the way to the history.
 */
export function LastReceipt({ sport }: { sport: Sport }) {
  const user = useCurrentUser()
  const receipt = useLastReceiptQuery({ sport, userId: user.id }).data ?? null
  const [copied, setCopied] = useState<string | null>(null)
  const copy = async () => {
    if (!receipt) return
    try {
      await navigator.clipboard.writeText(receiptText(receipt))
      setCopied(receipt.id)
    } catch {
      setCopied(null)
    }
  }
  return (
    <section className={styles.receipt} aria-label="Last receipt" data-testid="last-receipt">
      {receipt ? (
        <>
          <p>
            {LABEL[receipt.kind ?? 'save']}: receipt{' '}
            <span className={styles.id} title={receiptText(receipt)}>
              {shortReceiptId(receipt.id)}
            </span>{' '}
            at <time dateTime={receipt.savedAt}>{formatInstantMs(receipt.savedAt)}</time>
          </p>
          <Button variant="secondary" onClick={() => void copy()}>
            {copied === receipt.id ? 'Copied' : 'Copy receipt'}
          </Button>
        </>
      ) : (
        <p>Each save you make gets a receipt you can check later.</p>
      )}
      <Link to={`/${sport}/tips-history`} className={styles.historyLink}>
        My tips history
      </Link>
      <span className="visually-hidden" role="status">
        {copied === receipt?.id ? 'Receipt copied' : ''}
      </span>
    </section>
  )
}
