/**
 * Counts attempts per key in a fixed one-minute window, in this process's memory (safe to lose:
 * a restart only forgives). Used for sign-in attempts per account, which the per-address limiter
 * of @fastify/rate-limit cannot see before the body is read.
 */
export class AttemptThrottle {
  private readonly windows = new Map<string, { start: number; count: number }>()

  constructor(
    private readonly max: number,
    private readonly windowMs = 60_000,
  ) {}

  /** Records an attempt; false when the key is over its limit for the current window. */
  allow(key: string, now: number): boolean {
    const w = this.windows.get(key)
    if (!w || now - w.start >= this.windowMs) {
      if (this.windows.size > 100_000) this.sweep(now)
      this.windows.set(key, { start: now, count: 1 })
      return true
    }
    w.count++
    return w.count <= this.max
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows)
      if (now - w.start >= this.windowMs) this.windows.delete(key)
  }
}

/**
 * The address a limit counts a caller by: IPv4 as it is, IPv6 by its /64 (one subscriber's
 * allocation; counting each of its 2^64 addresses apart would give one caller endless fresh
 * counters).
 */
export function addressKey(ip: string): string {
  if (!ip.includes(':')) return ip
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  if (mapped) return mapped[1]!
  const [head = '', tail = ''] = ip.split('::')
  const left = head ? head.split(':') : []
  const right = ip.includes('::') && tail ? tail.split(':') : []
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left
  return `${groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`
}

/**
 * Counts events per key in fixed windows without counting the look (unlike AttemptThrottle): for
 * budgets spent by outcomes, such as "this email is taken" answers.
 */
export class WindowCounter {
  private readonly windows = new Map<string, { start: number; count: number }>()

  constructor(private readonly windowMs: number) {}

  count(key: string, now: number): number {
    const w = this.windows.get(key)
    return w && now - w.start < this.windowMs ? w.count : 0
  }

  /** Milliseconds until the key's window ends (0 when it has none). */
  remainingMs(key: string, now: number): number {
    const w = this.windows.get(key)
    return w ? Math.max(0, w.start + this.windowMs - now) : 0
  }

  add(key: string, now: number): void {
    const w = this.windows.get(key)
    if (w && now - w.start < this.windowMs) {
      w.count++
      return
    }
    if (this.windows.size > 100_000)
      for (const [k, old] of this.windows)
        if (now - old.start >= this.windowMs) this.windows.delete(k)
    this.windows.set(key, { start: now, count: 1 })
  }
}

interface AccountFailures {
  count: number
  last: number
  /** Each address that has failed for the account: when it last tried. */
  addresses: Map<string, number>
}

export interface LoginBackoffOptions {
  /** Failures an account takes (from any addresses) before the back-off starts. */
  freeFailures: number
  /** The first wait; each further failure doubles it, up to maxMs. */
  baseMs?: number
  maxMs?: number
  /** An account with no failure for this long starts afresh. */
  forgetMs?: number
}

const MAX_ACCOUNTS = 100_000
const MAX_ADDRESSES_PER_ACCOUNT = 1_000

/**
 * Sign-in back-off per account that cannot be turned into a lockout (issue 26, item 5). Failures
 * count per account from every address; past `freeFailures` each address that has failed for the
 * account waits base * 2^(failures - free) (at most maxMs) from its last attempt before it may try
 * again. An address that has not failed for the account is never held back, so the owner signing
 * in from elsewhere gets in whatever others have sent; a guesser pays one attempt per address and
 * then waits like everyone who failed. In memory (safe to lose: a restart only forgives); an
 * unknown email is treated exactly like a known one.
 */
export class LoginBackoff {
  private readonly accounts = new Map<string, AccountFailures>()
  private readonly baseMs: number
  private readonly maxMs: number
  private readonly forgetMs: number

  constructor(private readonly opts: LoginBackoffOptions) {
    this.baseMs = opts.baseMs ?? 1000
    this.maxMs = opts.maxMs ?? 15 * 60_000
    this.forgetMs = opts.forgetMs ?? 24 * 3_600_000
  }

  /**
   * Milliseconds the address must still wait before trying the account (0: go ahead). A held-back
   * address's attempt restarts its wait, so attempts sent together do not all pass.
   */
  check(account: string, address: string, now: number): number {
    const a = this.live(account, now)
    const last = a?.addresses.get(address)
    if (!a || last === undefined) return 0
    const wait = last + this.delay(a.count) - now
    if (wait > 0) return wait
    a.addresses.set(address, now)
    return 0
  }

  failed(account: string, address: string, now: number): void {
    let a = this.live(account, now)
    if (!a) {
      if (this.accounts.size >= MAX_ACCOUNTS) this.evict(now)
      a = { count: 0, last: now, addresses: new Map() }
    }
    a.count++
    a.last = now
    a.addresses.delete(address)
    a.addresses.set(address, now)
    if (a.addresses.size > MAX_ADDRESSES_PER_ACCOUNT)
      a.addresses.delete(a.addresses.keys().next().value!)
    // Re-inserted, so the map's order is least recently failed first (what evict drops).
    this.accounts.delete(account)
    this.accounts.set(account, a)
  }

  /** The right password from this address: it is no longer held back for the account. */
  succeeded(account: string, address: string): void {
    this.accounts.get(account)?.addresses.delete(address)
  }

  private delay(failures: number): number {
    if (failures < this.opts.freeFailures) return 0
    return Math.min(this.baseMs * 2 ** Math.min(failures - this.opts.freeFailures, 40), this.maxMs)
  }

  private live(account: string, now: number): AccountFailures | undefined {
    const a = this.accounts.get(account)
    if (a && now - a.last >= this.forgetMs) {
      this.accounts.delete(account)
      return undefined
    }
    return a
  }

  private evict(now: number): void {
    for (const [key, a] of this.accounts)
      if (now - a.last >= this.forgetMs) this.accounts.delete(key)
    // Still full: the accounts that failed longest ago go first.
    for (const key of this.accounts.keys()) {
      if (this.accounts.size < MAX_ACCOUNTS) break
      this.accounts.delete(key)
    }
  }
}
