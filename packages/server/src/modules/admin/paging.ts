import { ADMIN_PAGE_SIZE } from '@tipping/contract/admin'

// What the console's areas share: dates as ISO text, and pages of ADMIN_PAGE_SIZE rows.

export const iso = (d: Date) => d.toISOString()
export const offsetOf = (page: number) => (page - 1) * ADMIN_PAGE_SIZE
/** Reads one row more than a page, so the answer knows whether there is a next one. */
export function paged<T>(rows: T[], page: number): { rows: T[]; nextPage: number | null } {
  return rows.length > ADMIN_PAGE_SIZE
    ? { rows: rows.slice(0, ADMIN_PAGE_SIZE), nextPage: page + 1 }
    : { rows, nextPage: null }
}
/** A LIKE pattern matching `s` anywhere, its wildcards taken literally. */
export const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
