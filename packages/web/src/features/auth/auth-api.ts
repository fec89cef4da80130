import type { LoginBody, RegisterBody, UserResponse } from '@tipping/contract/auth'
import type { Sport } from '@tipping/contract/constants'
import { api } from '../../lib/api-client.ts'

export const fetchSessionUser = (sport: Sport) =>
  api<UserResponse>(`${sport}/user`, { skipUnauthorized: true })
export const login = (body: LoginBody) =>
  api<UserResponse>('auth/login', { method: 'POST', body, skipUnauthorized: true })
export const register = (body: RegisterBody) =>
  api<UserResponse>('auth/register', { method: 'POST', body })
export const logout = (sport: Sport) =>
  api<{ ok: true }>(`${sport}/auth/logout`, { method: 'POST', body: {} })
