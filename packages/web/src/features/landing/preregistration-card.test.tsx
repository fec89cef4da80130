import { act, fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { canPreregister, EMAIL_MAX, PREREGISTRATION_NAME_MAX } from '@tipping/contract/site-rules'
import { ApiCallError } from '../../lib/api-client.ts'
import { PreregistrationCard, preregistrationProblems } from './preregistration-card.tsx'

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

describe('pre-registration problems in words', () => {
  it.each([
    [
      '',
      '',
      { name: 'Enter your name (at least 2 characters)', email: 'Enter your email address' },
    ],
    [' J ', 'jo@example.com', { name: 'Enter your name (at least 2 characters)' }],
    ['x'.repeat(81), 'jo@example.com', { name: 'Name must be at most 80 characters' }],
    ['Jo', 'jo@example.info', { email: 'Enter a valid email address, like name@example.com' }],
    ['Jo', ' jo@example.com ', {}],
  ])('name %j, email %j', (name, email, problems) => {
    expect(preregistrationProblems(name, email)).toEqual(problems)
  })

  it('finds a problem exactly when the spec keeps the button off', () => {
    for (const [name, email] of [
      ['Al', 'al@example.com'],
      ['A', 'al@example.com'],
      ['Al', 'al@example'],
      ['Al', ''],
    ] as const)
      expect(Object.keys(preregistrationProblems(name, email)).length === 0).toBe(
        canPreregister(name, email, null),
      )
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

  it("says the server's refusal under the button, which keeps its label, until the fields change", async () => {
    const submit = vi
      .fn()
      .mockRejectedValue(new ApiCallError('Too many pre-registrations', 'RATE_LIMITED', null, 429))
    render(<PreregistrationCard appStoreUrl={null} playStoreUrl={null} submit={submit} />)
    type('Name', 'Jo')
    type('Email', 'jo@example.com')
    await act(async () => {
      fireEvent.click(button())
    })
    expect(button().textContent).toBe('Register your interest')
    expect(screen.getByRole('alert').textContent).toBe('Too many pre-registrations')
    expect(button().disabled).toBe(true)
    type('Email', 'joe@example.com')
    expect(button().disabled).toBe(false)
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('puts a refusal naming a field under that field', async () => {
    const submit = vi
      .fn()
      .mockRejectedValue(
        new ApiCallError('Name must be at most 80 characters', 'VALIDATION', 'name', 400),
      )
    render(<PreregistrationCard appStoreUrl={null} playStoreUrl={null} submit={submit} />)
    type('Name', 'Jo')
    type('Email', 'jo@example.com')
    await act(async () => {
      fireEvent.click(button())
    })
    const name = screen.getByLabelText('Name')
    expect(name.getAttribute('aria-invalid')).toBe('true')
    expect(document.getElementById(name.getAttribute('aria-describedby')!)!.textContent).toBe(
      'Name must be at most 80 characters',
    )
    expect(button().textContent).toBe('Register your interest')
  })

  it('says what is wrong with a field, in words, once it has been left', () => {
    render(<PreregistrationCard appStoreUrl={null} playStoreUrl={null} submit={vi.fn()} />)
    type('Name', 'J')
    // Not while typing.
    expect(screen.queryByRole('alert')).toBeNull()
    fireEvent.blur(screen.getByLabelText('Name'))
    expect(screen.getByRole('alert').textContent).toBe('Enter your name (at least 2 characters)')
    type('Email', 'jo@example')
    fireEvent.blur(screen.getByLabelText('Email'))
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
      'Enter your name (at least 2 characters)',
      'Enter a valid email address, like name@example.com',
    ])
    type('Name', 'Jo')
    type('Email', 'jo@example.com')
    expect(screen.queryByRole('alert')).toBeNull()
    expect(button().textContent).toBe('Register your interest')
  })

  it('shows both problems on Enter with both fields empty', async () => {
    const submit = vi.fn()
    render(<PreregistrationCard appStoreUrl={null} playStoreUrl={null} submit={submit} />)
    await act(async () => {
      fireEvent.keyDown(screen.getByLabelText('Name'), { key: 'Enter' })
    })
    expect(submit).not.toHaveBeenCalled()
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
      'Enter your name (at least 2 characters)',
      'Enter your email address',
    ])
  })

  it("limits each field's length to the contract's", () => {
    render(<PreregistrationCard appStoreUrl={null} playStoreUrl={null} submit={vi.fn()} />)
    expect(screen.getByLabelText<HTMLInputElement>('Name').maxLength).toBe(PREREGISTRATION_NAME_MAX)
    expect(screen.getByLabelText<HTMLInputElement>('Email').maxLength).toBe(EMAIL_MAX)
  })

  it('invites people to the season it is given', () => {
    render(
      <PreregistrationCard
        appStoreUrl={null}
        playStoreUrl={null}
        submit={vi.fn()}
        season="2026-27"
      />,
    )
    const heading = screen.getByRole('heading', {
      name: 'PRE-REGISTER FOR THE 2026-27 SEASON NOW!',
    })
    // The label is kept on one line: it broke after "2026-" at the end of a line at 1280 px.
    expect(heading.querySelector('.season-label')?.textContent).toBe('2026-27')
  })

  it('asks a signed-in player for nothing: their account carries over', () => {
    render(
      <PreregistrationCard
        appStoreUrl="https://apps.apple.com/app/id1"
        playStoreUrl={null}
        submit={vi.fn()}
        season="2026-27"
        signedInAs="ada@example.com"
      />,
    )
    const heading = screen.getByRole('heading', { name: "YOU'RE SET FOR THE 2026-27 SEASON" })
    const lead = screen.getByTestId('prereg-signed-in')
    expect(lead.textContent).toContain("You're signed in as ada@example.com.")
    for (const text of [heading, lead])
      expect(text.querySelector('.season-label')?.textContent).toBe('2026-27')
    expect(screen.queryByLabelText('Name')).toBeNull()
    expect(screen.queryByTestId('prereg-submit')).toBeNull()
    expect(screen.getByRole('link', { name: /App Store/ })).toBeTruthy()
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
