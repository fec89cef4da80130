import { hash, verify } from '@node-rs/argon2'

// OWASP password storage: argon2id (algorithm 2; the package's enum is a const enum that
// isolated modules cannot import), 19 MiB, 2 passes, 1 lane.
const ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2ID)

export const verifyPassword = (stored: string, password: string): Promise<boolean> =>
  verify(stored, password).catch(() => false)
