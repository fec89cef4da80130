// How every launcher of the API server runs Node (npm start, the bench, the reliability and
// end-to-end harnesses), so the bench measures the process a deployment runs. The systemd unit
// (deploy/systemd/tipping-api@.service) runs the same; e2e/deploy.spec.ts holds the two equal.
//
// The V8 old-space ceiling keeps the API process inside its memory budget (issue 8: at most
// 350 MB during the deadline rush). Without it V8 grows the heap lazily on a large machine and
// keeps what it grew: 535 MB RSS in bench/ after the read scenarios. Its height trades memory for
// tail latency: the live heap under load is about 120 MB, and the closer the ceiling, the more
// often V8 runs a full collection, which stalls every request in flight. At 1M, alternated runs
// of the load scenarios: 192 MB gave rush RSS 296-299 MB and p99s of 53-85 ms on the ladders,
// own page and snapshot; 320 MB gave 310-326 MB and 34-52 ms (bench/README.md).
//
// The young generation (decision 039): under a crowd a scavenge ran every 60-70 ms and took
// about 6 ms, each copying what the 100 requests in flight hold; the driver's rows that outlived
// it were promoted whole pages at a time or allocated straight into old space (V8's page
// promotion and allocation-site pretenuring), which then filled with rows dead a moment later and
// forced a full collection every 1.3 s. A 32 MB semi-space halves the scavenges, and without the
// two promotions rows die young: the main thread's GC time under the My season load fell from
// about 2.2 s to 1.3 s in 24 s, and My season's, the head-to-head's and the rush's p99s fell
// (bench/README.md). A flag here wins over the same one in NODE_OPTIONS (the command line comes
// last), so a change is made in this list, which the unit follows.
export const SERVER_NODE_FLAGS = [
  '--max-old-space-size=320',
  '--max-semi-space-size=32',
  '--no-page-promotion',
  '--no-allocation-site-pretenuring',
  '--import',
  'tsx',
]
