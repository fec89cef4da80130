import type { BaseLogger } from 'pino'

/**
 * What services and jobs log through: the app's pino logger (Fastify's is one), named here so
 * nothing below the HTTP layer needs a Fastify type.
 */
export type Logger = Pick<BaseLogger, 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'>
