import { act, fireEvent, render, screen } from '@testing-library/react'
import { MemoryRouter, Route, Routes } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import {
  CONTACT_MESSAGE_MAX,
  CONTACT_MESSAGE_MIN,
  CONTACT_NAME_MAX,
  EMAIL_MAX,
} from '@tipping/contract/site-rules'
import { ApiCallError } from '../../lib/api-client.ts'
import { ContactForm } from './contact-page.tsx'
import { contactPhase, contactReducer, initialContactState } from './contact-state.ts'

function renderForm(submit: (body: unknown) => Promise<unknown>, path = '/wbbl/help/contact') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/:sport/help/contact" element={<ContactForm submit={submit} />} />
      </Routes>
    </MemoryRouter>,
  )
}

const fill = () => {
  fireEvent.change(screen.getByLabelText('Your name'), { target: { value: 'Casey' } })
  fireEvent.change(screen.getByLabelText('Your email'), { target: { value: 'casey@example.com' } })
  fireEvent.change(screen.getByLabelText('Message'), {
    target: { value: 'My picks did not save on Friday.' },
  })
}

describe('contact state (spec 4 "Contact")', () => {
  it('start, success, reset and failure move through idle, sending, sent and error', () => {
    let s = initialContactState
    expect(contactPhase(s)).toBe('idle')
    s = contactReducer(s, { type: 'start' })
    expect(s).toMatchObject({ inProgress: true, submitted: false })
    expect(contactPhase(s)).toBe('sending')
    s = contactReducer(s, { type: 'success' })
    expect(s).toMatchObject({ inProgress: false, submitted: true })
    expect(contactPhase(s)).toBe('sent')
    s = contactReducer(s, { type: 'reset' })
    expect(s).toEqual(initialContactState)
    s = contactReducer(contactReducer(s, { type: 'start' }), {
      type: 'failure',
      message: 'Nope',
      param: null,
    })
    expect(contactPhase(s)).toBe('error')
    expect(contactReducer(s, { type: 'start' }).error).toBeNull()
  })
})

describe('ContactForm', () => {
  it('sends the fields with the sport, shows Sending… then the sent state, and can reset', async () => {
    let resolve: (v: unknown) => void = () => undefined
    const submit = vi.fn(() => new Promise((r) => (resolve = r)))
    renderForm(submit)
    fill()
    await act(async () => {
      fireEvent.click(screen.getByTestId('contact-submit'))
    })
    expect(submit).toHaveBeenCalledWith({
      name: 'Casey',
      email: 'casey@example.com',
      message: 'My picks did not save on Friday.',
      sport: 'wbbl',
      requestId: expect.stringMatching(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      ),
    })
    const sending = screen.getByTestId<HTMLButtonElement>('contact-submit')
    expect(sending.textContent).toBe('Sending…')
    expect(sending.disabled).toBe(true)
    await act(async () => {
      resolve({ sent: true })
    })
    expect(screen.getByTestId('contact-sent').textContent).toMatch(/message has been sent/)
    fireEvent.click(screen.getByRole('button', { name: 'Send another message' }))
    expect(screen.getByLabelText<HTMLTextAreaElement>('Message').value).toBe('')
  })

  it('sends the same request id again after an error, and a new one for the next message (decision 049)', async () => {
    const submit = vi
      .fn()
      .mockRejectedValueOnce(new ApiCallError('Try again soon', 'SERVICE_UNAVAILABLE', null, 503))
      .mockResolvedValue({ sent: true })
    renderForm(submit)
    fill()
    const press = () =>
      act(async () => {
        fireEvent.click(screen.getByTestId('contact-submit'))
      })
    await press()
    await press()
    const ids = () => submit.mock.calls.map((c) => (c[0] as { requestId: string }).requestId)
    expect(ids()).toHaveLength(2)
    expect(ids()[1]).toBe(ids()[0])
    fireEvent.click(screen.getByRole('button', { name: 'Send another message' }))
    fill()
    await press()
    expect(ids()).toHaveLength(3)
    expect(ids()[2]).not.toBe(ids()[0])
  })

  it('shows a field error from the server beside that field, and keeps what was typed', async () => {
    const submit = vi
      .fn()
      .mockRejectedValue(
        new ApiCallError('Write at least 10 characters', 'VALIDATION', 'message', 400),
      )
    renderForm(submit)
    fill()
    await act(async () => {
      fireEvent.click(screen.getByTestId('contact-submit'))
    })
    const message = screen.getByLabelText('Message')
    expect(message.getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByRole('alert').textContent).toBe('Write at least 10 characters')
    expect((message as HTMLTextAreaElement).value).toBe('My picks did not save on Friday.')
    expect(screen.getByTestId<HTMLButtonElement>('contact-submit').disabled).toBe(false)
  })

  it("shows every field's problem at once on an empty submit, sends nothing, focuses the first", async () => {
    const submit = vi.fn()
    renderForm(submit)
    await act(async () => {
      fireEvent.click(screen.getByTestId('contact-submit'))
    })
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
      'Enter your name',
      'Enter your email address',
      `Write your message (at least ${CONTACT_MESSAGE_MIN} characters)`,
    ])
    expect(document.activeElement).toBe(screen.getByLabelText('Your name'))
    expect(submit).not.toHaveBeenCalled()
    // Each message goes with an edit of its own field.
    fireEvent.change(screen.getByLabelText('Your name'), { target: { value: 'Casey' } })
    expect(screen.getAllByRole('alert')).toHaveLength(2)
  })

  it("checks the contract's rules before sending (a bad email, a short message)", async () => {
    const submit = vi.fn()
    renderForm(submit)
    fireEvent.change(screen.getByLabelText('Your name'), { target: { value: 'Casey' } })
    fireEvent.change(screen.getByLabelText('Your email'), { target: { value: 'casey@' } })
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Hi' } })
    await act(async () => {
      fireEvent.click(screen.getByTestId('contact-submit'))
    })
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
      'Enter a valid email address',
      `Write at least ${CONTACT_MESSAGE_MIN} characters`,
    ])
    expect(submit).not.toHaveBeenCalled()
  })

  it("limits each field to the contract's length", () => {
    renderForm(vi.fn())
    expect(screen.getByLabelText<HTMLInputElement>('Your name').maxLength).toBe(CONTACT_NAME_MAX)
    expect(screen.getByLabelText<HTMLInputElement>('Your email').maxLength).toBe(EMAIL_MAX)
    expect(screen.getByLabelText<HTMLTextAreaElement>('Message').maxLength).toBe(
      CONTACT_MESSAGE_MAX,
    )
  })

  it('shows a general failure (rate limit, network) as an alert', async () => {
    const submit = vi
      .fn()
      .mockRejectedValue(new ApiCallError('Too many messages', 'RATE_LIMITED', null, 429))
    renderForm(submit)
    fill()
    await act(async () => {
      fireEvent.click(screen.getByTestId('contact-submit'))
    })
    expect(screen.getByRole('alert').textContent).toBe('Too many messages')
  })
})
