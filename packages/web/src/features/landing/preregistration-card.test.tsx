import { act, fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { canPreregister } from '@tipping/contract/site-rules'
import { ApiCallError } from '../../lib/api-client.ts'
import { PreregistrationCard } from './preregistration-card.tsx'

const button = () => screen.getByTestId<HTMLButtonElement>('prereg-submit')
const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } })

describe('pre-registration rules (spec 5)', () => {
  it.each([
    ['Al', 'al@example.com', null, true],
    ['A', 'al@example.com', null, false],
    [' A ', 'al@example.com', null, false],
    ['Al', 'al@example', null, false],
    ['Al', 'al@example.info', null, false],
    ['Al', 'al example@x.com', null, false],
    ['Al', 'al@example.co', null, true],
    ['Al', 'al@example.com', 'Successfully Pre-registered', false],
  ])('name %j, email %j, message %j -> enabled %s', (name, email, message, ok) => {
    expect(canPreregister(name, email, message)).toBe(ok)
  })
})

describe('PreregistrationCard', () => {
  it('shows the card and keeps the button off until the name and email pass', () => {
    render(<PreregistrationCard appStoreUrl={null} playStoreUrl={null} submit={vi.fn()} />)
    expect(
      screen.getByRole('heading', { name: 'PRE-REGISTER FOR THE 2025-26 SEASON NOW!' }),
    ).toBeTruthy()
    expect(button().textContent).toBe('Register your interest')
    expect(button().disabled).toBe(true)
    type('Name', 'J')
    type('Email', 'jo@example.com')
    expect(button().disabled).toBe(true)
    type('Name', 'Jo')
    expect(button().disabled).toBe(false)
    type('Email', 'jo@example')
    expect(button().disabled).toBe(true)
  })

  it('sends the trimmed fields, then reads Successfully Pre-registered and stays disabled', async () => {
    const submit = vi.fn().mockResolvedValue({ message: 'Successfully Pre-registered' })
    render(<PreregistrationCard appStoreUrl={null} playStoreUrl={null} submit={submit} />)
    type('Name', ' Jo ')
    type('Email', 'jo@example.com ')
    await act(async () => {
      fireEvent.click(button())
    })
    expect(submit).toHaveBeenCalledWith({ name: 'Jo', email: 'jo@example.com' })
    expect(button().textContent).toBe('Successfully Pre-registered')
    expect(button().disabled).toBe(true)
    expect(screen.getByRole('status').textContent).toMatch(/on the list/)
    expect(submit).toHaveBeenCalledTimes(1)
    // Editing clears the message (spec 4: the message can be cleared).
    type('Name', 'Jo Smith')
    expect(button().textContent).toBe('Register your interest')
    expect(button().disabled).toBe(false)
  })

  it("shows the server's error on the button until the fields change", async () => {
    const submit = vi
      .fn()
      .mockRejectedValue(new ApiCallError('Too many pre-registrations', 'RATE_LIMITED', null, 429))
    render(<PreregistrationCard appStoreUrl={null} playStoreUrl={null} submit={submit} />)
    type('Name', 'Jo')
    type('Email', 'jo@example.com')
    await act(async () => {
      fireEvent.click(button())
    })
    expect(button().textContent).toBe('Too many pre-registrations')
    expect(button().disabled).toBe(true)
    type('Email', 'joe@example.com')
    expect(button().disabled).toBe(false)
  })

  it('sends on Enter in a field, and not while the rules fail', async () => {
    const submit = vi.fn().mockResolvedValue({ message: 'Successfully Pre-registered' })
    render(<PreregistrationCard appStoreUrl={null} playStoreUrl={null} submit={submit} />)
    type('Name', 'J')
    type('Email', 'jo@example.com')
    await act(async () => {
      fireEvent.keyDown(screen.getByLabelText('Email'), { key: 'Enter' })
    })
    expect(submit).not.toHaveBeenCalled()
    type('Name', 'Jo')
    await act(async () => {
      fireEvent.keyDown(screen.getByLabelText('Email'), { key: 'Enter' })
    })
    expect(submit).toHaveBeenCalledWith({ name: 'Jo', email: 'jo@example.com' })
    expect(button().textContent).toBe('Successfully Pre-registered')
  })

  it('links the configured app stores only', () => {
    const { rerender } = render(
      <PreregistrationCard appStoreUrl={null} playStoreUrl={null} submit={vi.fn()} />,
    )
    expect(screen.queryByRole('navigation', { name: 'Get the official app' })).toBeNull()
    rerender(
      <PreregistrationCard
        appStoreUrl="https://apps.example.com/app/1"
        playStoreUrl={null}
        submit={vi.fn()}
      />,
    )
    const link = screen.getByRole<HTMLAnchorElement>('link', { name: 'Download on the App Store' })
    expect(link.href).toBe('https://apps.example.com/app/1')
    expect(link.rel).toContain('noopener')
    expect(screen.queryByRole('link', { name: 'Get it on Google Play' })).toBeNull()
  })
})
