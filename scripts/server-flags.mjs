// How every launcher of the API server runs Node (npm start, the bench, the reliability and
// end-to-end harnesses), so the bench measures the process a deployment runs.
//
// The V8 old-space ceiling keeps the API process inside its memory budget (issue 8: at most
// 350 MB during the deadline rush). Without it V8 grows the heap lazily on a large machine and
// keeps what it grew: 535 MB RSS in bench/ after the read scenarios. Its height trades memory for
// tail latency: the live heap under load is about 120 MB, and the closer the ceiling, the more
// often V8 runs a full collection, which stalls every request in flight. At 1M, alternated runs
// of the load scenarios: 192 MB gave rush RSS 296-299 MB and p99s of 53-85 ms on the ladders,
// own page and snapshot; 320 MB gave 310-326 MB and 34-52 ms (bench/README.md). Override with
// NODE_OPTIONS if needed.
export const SERVER_NODE_FLAGS = ['--max-old-space-size=320', '--import', 'tsx']
