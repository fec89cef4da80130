import { useEffect } from 'react'
import { useBlocker } from 'react-router'
import { Button } from '../../ui/button.tsx'
import { Modal } from '../../ui/modal.tsx'

export const leaveMessage = (picked: number, total: number) =>
  `You have only entered a tip for ${picked}/${total} Games! Please select all your tips before leaving the site.`

/**
 * Spec 2 "Leave-page confirm": while tips are incomplete and unsaved, in-app navigation asks first
 * and closing the tab gets the browser's own prompt.
 */
export function LeaveGuard({
  active,
  picked,
  total,
}: {
  active: boolean
  picked: number
  total: number
}) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      active && currentLocation.pathname !== nextLocation.pathname,
  )

  useEffect(() => {
    if (!active) return
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault()
      // Older browsers show this text; current ones show their own wording.
      e.returnValue = leaveMessage(picked, total)
    }
    window.addEventListener('beforeunload', onBeforeUnload)
    return () => window.removeEventListener('beforeunload', onBeforeUnload)
  }, [active, picked, total])

  return (
    <Modal
      open={blocker.state === 'blocked'}
      title="Leave without saving?"
      onClose={() => blocker.reset?.()}
    >
      <p data-testid="leave-message">{leaveMessage(picked, total)}</p>
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 12 }}>
        <Button data-testid="leave-stay" onClick={() => blocker.reset?.()}>
          Stay and tip
        </Button>
        <Button variant="secondary" data-testid="leave-go" onClick={() => blocker.proceed?.()}>
          Leave anyway
        </Button>
      </div>
    </Modal>
  )
}
