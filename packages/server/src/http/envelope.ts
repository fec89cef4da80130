import type { ApiError } from '@tipping/contract/errors'

export const success = <T>(data: T): { success: T } => ({ success: data })
export const failure = (errors: ApiError[]): { errors: ApiError[] } => ({ errors })
