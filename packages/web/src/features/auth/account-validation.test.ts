import { describe, expect, it } from 'vitest'
import {
  validateNewPassword,
  validatePasswordChange,
  validateProfile,
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
  it('limits the team name to 40 characters; an empty one clears it', () => {
    expect(validateProfile({ team_name: 'x'.repeat(41) })).toEqual({
      team_name: 'Team name must be at most 40 characters',
    })
    expect(validateProfile({ team_name: 'x'.repeat(40) })).toEqual({})
    expect(validateProfile({ team_name: '' })).toEqual({})
  })
})
