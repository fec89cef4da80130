import { fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { Modal } from './modal.tsx'

// Spec 2 "Site-wide parts": modals close on Escape or a click outside.

function Harness({ onClose }: { onClose: () => void }) {
  const [open, setOpen] = useState(true)
  return (
    <Modal
      open={open}
      title="Log in"
      onClose={() => {
        onClose()
        setOpen(false)
      }}
    >
      <button type="button">Inside</button>
    </Modal>
  )
}

describe('modal', () => {
  it('closes on Escape', () => {
    const onClose = vi.fn()
    render(<Harness onClose={onClose} />)
    expect(screen.getByRole('dialog', { name: 'Log in' })).toBeTruthy()
    fireEvent.keyDown(screen.getByRole('button', { name: 'Inside' }), { key: 'Escape' })
    expect(onClose).toHaveBeenCalledTimes(1)
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('closes on a click outside but not on one inside', async () => {
    const onClose = vi.fn()
    render(<Harness onClose={onClose} />)
    // The outside-click listener is attached a tick after opening (so the opening click is not it).
    await new Promise((resolve) => setTimeout(resolve, 10))
    fireEvent.pointerDown(screen.getByRole('button', { name: 'Inside' }))
    expect(onClose).not.toHaveBeenCalled()
    // The overlay covers everything outside the dialog; a press on it is a click outside.
    const overlay = document.querySelector('[data-modal-overlay]')!
    fireEvent.pointerDown(overlay)
    fireEvent.click(overlay)
    expect(onClose).toHaveBeenCalledTimes(1)
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('closes with its close button', () => {
    const onClose = vi.fn()
    render(<Harness onClose={onClose} />)
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(onClose).toHaveBeenCalledTimes(1)
  })
})
