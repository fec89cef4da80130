// autocannon ships no type declarations; these cover what the bench uses of its promise API.
declare module 'autocannon' {
  interface Histogram {
    average: number
    p50: number
    p99: number
    p90: number
    p99_9: number
    max: number
    total: number
  }
  interface Result {
    requests: Histogram
    latency: Histogram
    duration: number
    errors: number
    timeouts: number
    non2xx: number
    statusCodeStats?: Record<string, { count: number | string }>
  }
  const autocannon: (options: Record<string, unknown>) => Promise<Result>
  export default autocannon
}
