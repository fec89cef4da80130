import { describe, expect, it } from 'vitest'
import {
  validateNewPassword,
  validatePasswordChange,
  validateProfile,
  PROFILE_MAX_LENGTH,
  validateResetRequest,
} from './account-validation.ts'

describe('forgot password form', () => {
  it('asks for an email, then a valid one, and passes a valid one', () => {
    expect(validateResetRequest('')).toEqual({ email: 'Enter your email address' })
    expect(validateResetRequest('   ')).toEqual({ email: 'Enter your email address' })
    expect(validateResetRequest('not-an-email')).toEqual({ email: 'Enter a valid email address' })
    expect(validateResetRequest('fan@example.com')).toEqual({})
  })
})

describe('new password (reset page)', () => {
  it('needs the minimum length and a matching confirmation', () => {
    expect(validateNewPassword('short', 'short')).toEqual({
      password: 'Password must be at least 8 characters',
    })
    expect(validateNewPassword('long enough', 'long enuogh')).toEqual({
      confirmation: 'The passwords do not match',
    })
    expect(validateNewPassword('long enough', 'long enough')).toEqual({})
  })

  it('refuses a password over the maximum', () => {
    const long = 'x'.repeat(201)
    expect(validateNewPassword(long, long)).toEqual({
      password: 'Password must be at most 200 characters',
    })
  })
})

describe('password change', () => {
  const ok = {
    currentPassword: 'old password',
    password: 'new password',
    confirmation: 'new password',
  }
  it('passes a valid change', () => {
    expect(validatePasswordChange(ok)).toEqual({})
  })
  it('needs the current password', () => {
    expect(validatePasswordChange({ ...ok, currentPassword: '' })).toEqual({
      currentPassword: 'Enter your current password',
    })
  })
  it('needs a new password different from the current one, confirmed', () => {
    expect(
      validatePasswordChange({ ...ok, password: 'old password', confirmation: 'old password' }),
    ).toEqual({ password: 'Choose a password different from the current one' })
    expect(validatePasswordChange({ ...ok, confirmation: 'other' })).toEqual({
      confirmation: 'The passwords do not match',
    })
  })
})

describe('profile', () => {
  const names = { first_name: 'Ada', last_name: 'Lovelace' }
  it('limits the team name to 40 characters; an empty one clears it', () => {
    expect(validateProfile({ ...names, team_name: 'x'.repeat(41) })).toEqual({
      team_name: 'Team name must be at most 40 characters',
    })
    expect(validateProfile({ ...names, team_name: 'x'.repeat(40) })).toEqual({})
    expect(validateProfile({ ...names, team_name: '' })).toEqual({})
  })

  it('lets a name change but never be emptied, and holds the inputs to the contract', () => {
    expect(validateProfile({ first_name: '  ', last_name: '', team_name: '' })).toEqual({
      first_name: 'Enter your first name',
      last_name: 'Enter your last name',
    })
    expect(validateProfile({ ...names, first_name: 'Ada\u0007', team_name: '' })).toEqual({
      first_name: 'Remove line breaks, tabs and other control characters',
    })
    // A name not sent is not changed, so it is not asked for (an account with no last name).
    expect(validateProfile({ first_name: 'Ada', team_name: 'Sixes' })).toEqual({})
    expect(PROFILE_MAX_LENGTH).toEqual({ first_name: 60, last_name: 60 })
  })
})
