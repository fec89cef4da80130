import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

// --cpu-cap (bench/README.md): the API server, the hello-world yardstick and the benchmark's
// PostgreSQL run in one cgroup whose CPU is capped to a fraction of the machine, so a run on the
// developers' box imitates a slower one (issue 29: 0.67, a box 1.5x slower). The cgroup v1 CPU
// controller: the group's cpu.cfs_quota_us of CPU time per cpu.cfs_period_us, shared by every
// process in its cgroup.procs (and every process they fork later, such as PostgreSQL's backends).
// The load generator stays outside: it is the players' side, not the box under test.

/** Where the cgroup v1 CPU controller is mounted on Linux. */
export const CGROUP_CPU_ROOT = '/sys/fs/cgroup/cpu'

export interface CpuCap {
  fraction: number
  /** The group's directory (under the controller's root). */
  dir: string
  quotaUs: number
  periodUs: number
  cpus: number
  /** Moves a process (every thread of it) into the group. */
  add(pid: number): void
  /** Moves a process and every process descended from it (a postmaster and its backends). */
  addTree(pid: number): void
  /** The processes in the group now. */
  pids(): number[]
  /** Moves whatever is still in the group back to the root group and removes the group. */
  remove(): void
}

/**
 * Makes a capped group: `fraction` of the machine's `cpus` (all of them by default). Throws a
 * clear error where the v1 CPU controller is missing or may not be written (not root).
 */
export function createCpuCap(
  fraction: number,
  opts: { root?: string; cpus?: number; name?: string } = {},
): CpuCap {
  if (!(fraction > 0 && fraction <= 1))
    throw new Error(
      `--cpu-cap must be a fraction of the machine above 0 and at most 1, not ${fraction}`,
    )
  const root = opts.root ?? CGROUP_CPU_ROOT
  if (!fs.existsSync(path.join(root, 'cpu.cfs_quota_us')))
    throw new Error(
      `--cpu-cap needs the cgroup v1 CPU controller at ${root} (cpu.cfs_quota_us, cpu.cfs_period_us, ` +
        'cgroup.procs), and this machine has none (cgroup v2 only, or the controller not mounted)',
    )
  const cpus = opts.cpus ?? os.availableParallelism()
  const dir = path.join(root, opts.name ?? `tipping-bench-${process.pid}`)
  try {
    fs.mkdirSync(dir)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
      throw new Error(`--cpu-cap could not create ${dir} (${code}): run the bench as root`)
    if (code !== 'EEXIST') throw err
  }
  const periodUs = Number(fs.readFileSync(path.join(dir, 'cpu.cfs_period_us'), 'utf8').trim())
  const quotaUs = Math.max(1000, Math.round(fraction * cpus * periodUs))
  fs.writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(quotaUs))

  const procsFile = path.join(dir, 'cgroup.procs')
  const pids = () => fs.readFileSync(procsFile, 'utf8').split('\n').filter(Boolean).map(Number)
  const add = (pid: number) => fs.writeFileSync(procsFile, String(pid))
  let removed = false
  const cap: CpuCap = {
    fraction,
    dir,
    quotaUs,
    periodUs,
    cpus,
    add,
    addTree(pid) {
      for (const p of [pid, ...descendants(pid)]) {
        try {
          add(p)
        } catch (err) {
          // a backend that ended in between
          if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err
        }
      }
    },
    pids,
    remove() {
      if (removed) return
      removed = true
      const rootProcs = path.join(root, 'cgroup.procs')
      // A process forked while the last ones move lands in the group: a few passes.
      for (let pass = 0; pass < 5; pass++) {
        for (const p of pids()) {
          try {
            fs.writeFileSync(rootProcs, String(p))
          } catch {
            // ended meanwhile
          }
        }
        try {
          fs.rmdirSync(dir)
          return
        } catch {
          // still busy: another pass
        }
      }
      console.error(`[bench] could not remove ${dir}: remove it by hand (rmdir)`)
    },
  }
  // Whatever ends the bench, the group goes and the PostgreSQL server runs uncapped again.
  process.on('exit', () => cap.remove())
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      cap.remove()
      process.exit(130)
    })
  return cap
}

/** The processes descended from `pid`, from /proc (children, their children, ...). */
export function descendants(pid: number): number[] {
  const parent = new Map<number, number[]>()
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const ppid = parentOf(Number(entry))
    if (ppid === undefined) continue
    parent.set(ppid, [...(parent.get(ppid) ?? []), Number(entry)])
  }
  const out: number[] = []
  const walk = (p: number) => {
    for (const c of parent.get(p) ?? []) {
      out.push(c)
      walk(c)
    }
  }
  walk(pid)
  return out
}

/** The parent of a process, from /proc/<pid>/stat; undefined when it has ended. */
export function parentOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return undefined
  }
}

/** The CPU cgroup a process is in, as /proc/<pid>/cgroup names it ("/" is the root group). */
export function cpuGroupOf(pid: number): string | undefined {
  const lines = fs.readFileSync(`/proc/${pid}/cgroup`, 'utf8').split('\n')
  for (const line of lines) {
    const [, controllers, group] = line.split(':')
    if (controllers?.split(',').includes('cpu')) return group
  }
  return undefined
}

/**
 * The postmaster of the PostgreSQL server a connection is served by, from its backend's pid
 * (`SELECT pg_backend_pid()`): the backend's parent. Throws when that backend is not a
 * PostgreSQL process on this machine (a server elsewhere, or in another pid namespace), which
 * --cpu-cap cannot cap.
 */
export function postmasterOf(backendPid: number): number {
  const isPostgres = (pid: number) => {
    try {
      return /postgres|postmaster/.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'))
    } catch {
      return false
    }
  }
  const ppid = parentOf(backendPid)
  if (!isPostgres(backendPid) || ppid === undefined || !isPostgres(ppid))
    throw new Error(
      `--cpu-cap: the benchmark's PostgreSQL (backend pid ${backendPid}) is not a process on this ` +
        'machine, so it cannot be capped: point --pg-url at a local server',
    )
  return ppid
}

/** The group's throttling so far (cpu.stat): periods, periods throttled, time throttled. */
export function throttling(cap: CpuCap): Record<string, number> {
  const out: Record<string, number> = {}
  for (const line of fs.readFileSync(path.join(cap.dir, 'cpu.stat'), 'utf8').split('\n')) {
    const [k, v] = line.split(' ')
    if (k && v !== undefined) out[k] = Number(v)
  }
  return out
}
