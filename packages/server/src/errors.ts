import { ERROR_STATUS, type ErrorCode } from '@tipping/contract/errors'

/** The one error type services throw; the error handler turns it into the envelope. */
export class AppError extends Error {
  readonly code: ErrorCode
  readonly param: string | null

  constructor(code: ErrorCode, message: string, param: string | null = null) {
    super(message)
    this.code = code
    this.param = param
  }

  get status(): number {
    return ERROR_STATUS[this.code]
  }
}

export const notFound = (what: string, param: string | null = null) =>
  new AppError('NOT_FOUND', `${what} not found`, param)
