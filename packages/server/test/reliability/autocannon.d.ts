// The parts of autocannon (which ships no types) the reliability tests and soak script use.
declare module 'autocannon' {
  interface Options {
    url: string
    connections?: number
    duration?: number
    amount?: number
    overallRate?: number
    timeout?: number
    headers?: Record<string, string>
    method?: string
    body?: string
    requests?: { method?: string; path: string; headers?: Record<string, string>; body?: string }[]
  }
  interface Histogram {
    average: number
    mean: number
    p50: number
    p99: number
    max: number
    total: number
  }
  interface Result {
    requests: Histogram
    latency: Histogram
    errors: number
    timeouts: number
    non2xx: number
    '2xx': number
    statusCodeStats: Record<string, { count: number }>
    duration: number
  }
  function autocannon(opts: Options): Promise<Result>
  export default autocannon
}
