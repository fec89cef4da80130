import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import type { FastifyInstance, FastifySchema } from 'fastify'
import type { z } from 'zod'
import type { Database } from '../src/db/schema.ts'
import { routeTable, type PolicedRoute } from '../src/http/route-policy.ts'

// Shared by the route-policy, fuzz and race tests: every registered route with its zod schemas,
// valid-looking values built from those schemas, and a fingerprint of the database.

/** A value for a named field, when its name says what it must be (a league id, an address). */
export type Hints = (key: string) => unknown

interface Def {
  type: string
  shape?: Record<string, z.ZodType>
  element?: z.ZodType
  innerType?: z.ZodType
  in?: z.ZodType
  out?: z.ZodType
  entries?: Record<string, string>
  values?: unknown[]
  options?: z.ZodType[]
  format?: string
  checks?: { _zod: { def: { check: string; minimum?: number; value?: number } } }[]
  defaultValue?: unknown
}
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def

/**
 * A value the schema accepts, as far as a generic walk can tell: objects get every field,
 * strings and numbers their minimum, enums their first member. Named fields take `hints` first.
 */
export function sample(schema: z.ZodType, hints: Hints = () => undefined, key = ''): unknown {
  const hinted = key ? hints(key) : undefined
  if (hinted !== undefined) return hinted
  const def = defOf(schema)
  switch (def.type) {
    case 'object': {
      const out: Record<string, unknown> = {}
      for (const [k, field] of Object.entries(def.shape ?? {})) out[k] = sample(field, hints, k)
      return out
    }
    case 'array':
      return [sample(def.element!, hints, key)]
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return sample(def.innerType!, hints, key)
    case 'pipe': {
      // What goes in, unless only what comes out passes (a trimmed string piped into an email).
      const first = sample(def.in!, hints, key)
      return schema.safeParse(first).success ? first : sample(def.out!, hints, key)
    }
    case 'enum':
      return Object.values(def.entries ?? {})[0]
    case 'literal':
      return def.values?.[0]
    case 'union':
      return sample(def.options![0]!, hints, key)
    case 'boolean':
      return false
    case 'number': {
      let n = 1
      for (const c of def.checks ?? []) {
        const d = c._zod.def
        if (d.check === 'greater_than' && typeof d.value === 'number') n = Math.max(n, d.value + 1)
      }
      return n
    }
    case 'string': {
      if (def.format === 'email') return `probe-${Math.random().toString(36).slice(2)}@example.com`
      if (def.format === 'uuid') return randomUUID()
      let min = 0
      for (const c of def.checks ?? []) {
        const d = c._zod.def
        if (d.check === 'min_length' && typeof d.minimum === 'number') min = d.minimum
        if (d.check === 'length_equals' && typeof (d as { length?: number }).length === 'number')
          min = (d as { length?: number }).length!
      }
      return 'probe'.padEnd(Math.max(min, 5), 'x')
    }
    default:
      return undefined
  }
}

/** Hints naming a BBL league the caller belongs to, for routes that take one. */
export const leagueHints =
  (league: { id: number; code: string }): Hints =>
  (k) =>
    ({ sport: 'bbl', id: league.id, leagueId: league.id, code: league.code, round: 1 })[k]

/** Fills `:name` and `*` segments of a route's URL. */
export function fillUrl(url: string, params: Record<string, string | number | undefined>): string {
  return url
    .replace(/:([A-Za-z_]+)/g, (_m, name: string) =>
      encodeURIComponent(String(params[name] ?? 'probe')),
    )
    .replace(/\*$/, String(params['*'] ?? '.well-known/openid-configuration'))
}

export interface DrivenRoute extends PolicedRoute {
  params: z.ZodType | undefined
  querystring: z.ZodType | undefined
  body: z.ZodType | undefined
}

const zodOf = (schema: FastifySchema | undefined, part: keyof FastifySchema) =>
  (schema?.[part] as z.ZodType | undefined) ?? undefined

/** The app's routes, HEAD twins of GET routes left out (they run the same handler). */
export function drivenRoutes(app: FastifyInstance): DrivenRoute[] {
  const seen = new Set<string>()
  return routeTable(app)
    .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS')
    .filter((r) => {
      const id = `${r.method} ${r.url}`
      if (seen.has(id)) return false
      seen.add(id)
      return true
    })
    .map((r) => ({
      ...r,
      params: zodOf(r.schema, 'params'),
      querystring: zodOf(r.schema, 'querystring'),
      body: zodOf(r.schema, 'body'),
    }))
}

/**
 * A digest of every table's rows, so a test can tell "nothing changed". Sessions leave out
 * last_seen_at (a signed-in read touches it, at most once an hour).
 */
export async function fingerprint(db: Database): Promise<Record<string, string>> {
  const tables = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT LIKE 'kysely_%'
    ORDER BY table_name`.execute(db)
  const out: Record<string, string> = {}
  for (const { table_name: name } of tables.rows) {
    const row =
      name === 'sessions'
        ? sql`(t.id_hash, t.user_id, t.created_at, t.expires_at, t.revoked_at)::text`
        : sql`t::text`
    const res = await sql<{ digest: string | null; n: string | number }>`
      SELECT md5(coalesce(string_agg(${row}, '|' ORDER BY ${row}), '')) AS digest, count(*) AS n
      FROM ${sql.table(name)} t`.execute(db)
    out[name] = `${res.rows[0]?.n}:${res.rows[0]?.digest}`
  }
  return out
}

/** Which fields of two fingerprints differ (empty when nothing changed). */
export const changedTables = (a: Record<string, string>, b: Record<string, string>): string[] =>
  Object.keys({ ...a, ...b }).filter((k) => a[k] !== b[k])
