// Spec 4 "Contact": start sets inProgress true and submitted false; success sets inProgress false
// and submitted true; reset sets both false. A failure (spec 8) records its own message.

export interface ContactState {
  inProgress: boolean
  submitted: boolean
  error: { message: string; param: string | null } | null
}

export type ContactAction =
  | { type: 'start' }
  | { type: 'success' }
  | { type: 'failure'; message: string; param: string | null }
  | { type: 'reset' }

export const initialContactState: ContactState = {
  inProgress: false,
  submitted: false,
  error: null,
}

export function contactReducer(state: ContactState, action: ContactAction): ContactState {
  switch (action.type) {
    case 'start':
      return { inProgress: true, submitted: false, error: null }
    case 'success':
      return { inProgress: false, submitted: true, error: null }
    case 'failure':
      return {
        inProgress: false,
        submitted: false,
        error: { message: action.message, param: action.param },
      }
    case 'reset':
      return initialContactState
  }
}

/** The screen's state by name: idle, sending, sent or error. */
export const contactPhase = (s: ContactState): 'idle' | 'sending' | 'sent' | 'error' =>
  s.inProgress ? 'sending' : s.submitted ? 'sent' : s.error ? 'error' : 'idle'
