import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CGROUP_CPU_ROOT, cpuGroupOf, createCpuCap, descendants, parentOf } from './cpu-cap.ts'

// The cgroup plumbing of --cpu-cap on the real kernel: where this machine has the v1 CPU
// controller and the test runs as root (the bench's box), a process put in a capped group is in
// it, the group has the quota, a busy process is throttled, and removing the group puts the
// process back. Elsewhere the same call must fail with the clear error the bench prints.

const children: ChildProcess[] = []
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL')
})

function start(script: string): ChildProcess {
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' })
  children.push(child)
  return child
}

const usable = (() => {
  if (!fs.existsSync(path.join(CGROUP_CPU_ROOT, 'cpu.cfs_quota_us'))) return false
  try {
    fs.accessSync(CGROUP_CPU_ROOT, fs.constants.W_OK)
    return true
  } catch {
    return false
  }
})()

describe('--cpu-cap cgroup plumbing', () => {
  it('refuses a machine without the v1 CPU controller, naming what it needs', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'no-cgroup-'))
    try {
      expect(() => createCpuCap(0.67, { root: empty })).toThrow(/cgroup v1 CPU controller/)
    } finally {
      fs.rmSync(empty, { recursive: true, force: true })
    }
  })

  it('refuses a cap that is not a fraction of the machine', () => {
    expect(() => createCpuCap(0)).toThrow(/--cpu-cap must be a fraction/)
    expect(() => createCpuCap(1.5)).toThrow(/--cpu-cap must be a fraction/)
    expect(() => createCpuCap(Number.NaN)).toThrow(/--cpu-cap must be a fraction/)
  })

  it('reads parents and descendants from /proc', async () => {
    const child = spawn('sh', ['-c', 'sleep 30 & wait'], { stdio: 'ignore' })
    children.push(child)
    await new Promise((r) => setTimeout(r, 200))
    expect(parentOf(child.pid!)).toBe(process.pid)
    const below = descendants(child.pid!)
    expect(below).toHaveLength(1)
    expect(parentOf(below[0]!)).toBe(child.pid)
    process.kill(below[0]!, 'SIGKILL')
  })

  it(
    usable
      ? 'caps a process tree in a group with the quota, throttles it, and removes the group'
      : 'fails with a clear error here (no writable v1 CPU controller)',
    async () => {
      if (!usable) {
        expect(() => createCpuCap(0.67)).toThrow(/cgroup v1 CPU controller|run the bench as root/)
        return
      }
      const busy = start('for (;;) {}')
      const tree = spawn('sh', ['-c', 'sleep 30 & wait'], { stdio: 'ignore' })
      children.push(tree)
      await new Promise((r) => setTimeout(r, 200))
      const name = `tipping-bench-test-${process.pid}`
      const cap = createCpuCap(0.05, { name, cpus: 2 })
      try {
        expect(cap.periodUs).toBeGreaterThan(0)
        expect(cap.quotaUs).toBe(Math.round(0.05 * 2 * cap.periodUs))
        expect(Number(fs.readFileSync(path.join(cap.dir, 'cpu.cfs_quota_us'), 'utf8'))).toBe(
          cap.quotaUs,
        )
        cap.add(busy.pid!)
        cap.addTree(tree.pid!)
        const sleeper = descendants(tree.pid!)[0]!
        expect(cpuGroupOf(busy.pid!)).toBe(`/${name}`)
        expect(cpuGroupOf(tree.pid!)).toBe(`/${name}`)
        expect(cpuGroupOf(sleeper)).toBe(`/${name}`)
        expect(cap.pids()).toEqual(expect.arrayContaining([busy.pid, tree.pid, sleeper]))
        // A process spinning on 5 % of two CPUs is throttled within a few periods.
        await new Promise((r) => setTimeout(r, 600))
        const stat = fs.readFileSync(path.join(cap.dir, 'cpu.stat'), 'utf8')
        expect(Number(/nr_throttled (\d+)/.exec(stat)?.[1])).toBeGreaterThan(0)
      } finally {
        cap.remove()
      }
      expect(fs.existsSync(cap.dir)).toBe(false)
      expect(cpuGroupOf(busy.pid!)).toBe('/')
      expect(cpuGroupOf(tree.pid!)).toBe('/')
    },
  )
})
