import { readStored, removeStored, writeStored } from './storage.ts'

// Spec 2 guards: a signed-out visitor's invite link is kept locally and followed after sign-in.
const JOIN_LINK = /^\/(bbl|wbbl)\/leagues\/join\/[A-Za-z0-9]{1,20}$/

export const isJoinLink = (path: string): boolean => JOIN_LINK.test(path)

export function rememberJoinLink(path: string): void {
  if (isJoinLink(path)) writeStored('joinLink', path)
}

/** The saved invite path, once; only ever an in-app join route, so it cannot redirect elsewhere. */
export function takeJoinLink(): string | null {
  const path = readStored('joinLink')
  removeStored('joinLink')
  return path && isJoinLink(path) ? path : null
}
