import { fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { MarginControl } from './margin-control.tsx'

describe('MarginControl (spec 5)', () => {
  it('disables decrease at 0 and increase at 100', () => {
    const { rerender } = render(<MarginControl value={0} disabled={false} onChange={() => {}} />)
    expect(screen.getByLabelText<HTMLInputElement>('One fewer six').disabled).toBe(true)
    expect(screen.getByLabelText<HTMLInputElement>('One more six').disabled).toBe(false)
    rerender(<MarginControl value={100} disabled={false} onChange={() => {}} />)
    expect(screen.getByLabelText<HTMLInputElement>('One more six').disabled).toBe(true)
    expect(screen.getByLabelText<HTMLInputElement>('One fewer six').disabled).toBe(false)
  })

  it('clamps typed values and steps by one', () => {
    const onChange = vi.fn()
    render(<MarginControl value={10} disabled={false} onChange={onChange} />)
    fireEvent.change(screen.getByRole('spinbutton'), { target: { value: '250' } })
    expect(onChange).toHaveBeenLastCalledWith(100)
    fireEvent.click(screen.getByLabelText('One more six'))
    expect(onChange).toHaveBeenLastCalledWith(11)
  })

  it('disables everything when no team is picked or the match is not scheduled', () => {
    render(<MarginControl value={null} disabled onChange={() => {}} />)
    expect(screen.getByRole<HTMLInputElement>('spinbutton').disabled).toBe(true)
    expect(screen.getByLabelText<HTMLInputElement>('One more six').disabled).toBe(true)
  })
})
