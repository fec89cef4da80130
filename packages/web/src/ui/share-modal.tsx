import { facebookShare, xShare } from '../lib/share.ts'
import { Button } from './button.tsx'
import { Modal } from './modal.tsx'
import styles from './modal.module.css'

const popup = (href: string) =>
  window.open(href, 'share', 'noopener,noreferrer,width=600,height=520')

/** Spec 2 general share modal: 'Where would you like to share?' with the social network's dialog,
 * the short-post network's window, and the device's own share sheet where there is one. */
export function ShareModal({
  open,
  text,
  url,
  onClose,
}: {
  open: boolean
  text: string
  url: string
  onClose: () => void
}) {
  const native = typeof navigator.share === 'function'
  return (
    <Modal open={open} title="Where would you like to share?" onClose={onClose}>
      <p>{text}</p>
      <div className={styles.shareGrid}>
        <Button variant="secondary" onClick={() => popup(facebookShare(url))}>
          Facebook
        </Button>
        <Button variant="secondary" onClick={() => popup(xShare(text, url))}>
          X
        </Button>
        {native ? (
          <Button
            variant="secondary"
            onClick={() => void navigator.share({ text, url }).catch(() => undefined)}
          >
            More…
          </Button>
        ) : null}
      </div>
    </Modal>
  )
}
