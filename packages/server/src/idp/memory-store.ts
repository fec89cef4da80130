import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider'

/** Entries above this count make room by dropping the oldest (codes live 60 s, sessions a day). */
const MAX_ENTRIES = 10_000

/**
 * The development provider's state (codes, sessions, grants), in this process's memory and per
 * provider instance: lost on restart, which for a development stand-in is what we want.
 */
export function memoryStore(): AdapterFactory {
  const entries = new Map<string, { payload: AdapterPayload; expiresAt: number }>()
  const live = (key: string) => {
    const e = entries.get(key)
    if (!e) return undefined
    if (e.expiresAt <= Date.now()) {
      entries.delete(key)
      return undefined
    }
    return e.payload
  }
  const findBy = (model: string, field: 'uid' | 'userCode', value: string) => {
    for (const key of entries.keys()) {
      if (!key.startsWith(`${model}:`)) continue
      const p = live(key)
      if (p?.[field] === value) return p
    }
    return undefined
  }

  return (model: string): Adapter => {
    const key = (id: string) => `${model}:${id}`
    return {
      async upsert(id, payload, expiresIn) {
        if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!)
        entries.set(key(id), {
          payload,
          expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY,
        })
      },
      async find(id) {
        return live(key(id))
      },
      async findByUid(uid) {
        return findBy(model, 'uid', uid)
      },
      async findByUserCode(userCode) {
        return findBy(model, 'userCode', userCode)
      },
      async consume(id) {
        const p = live(key(id))
        if (p) p.consumed = Math.floor(Date.now() / 1000)
      },
      async destroy(id) {
        entries.delete(key(id))
      },
      async revokeByGrantId(grantId) {
        for (const [k, e] of entries) if (e.payload.grantId === grantId) entries.delete(k)
      },
    }
  }
}
