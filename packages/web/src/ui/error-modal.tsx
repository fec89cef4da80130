import { Button } from './button.tsx'
import { Modal } from './modal.tsx'

/** Spec 8: the global Error modal shows the stored message; Understood clears it. */
export function ErrorModal({ message, onClose }: { message: string | null; onClose: () => void }) {
  return (
    <Modal open={message !== null} title="Error" onClose={onClose}>
      <p>{message}</p>
      <Button block onClick={onClose}>
        Understood
      </Button>
    </Modal>
  )
}
