// How every launcher of the API server runs Node (npm start, the bench, the reliability and
// end-to-end harnesses), so the bench measures the process a deployment runs.
//
// The V8 old-space ceiling keeps the API process inside its memory budget (issue 8: at most
// 350 MB during the deadline rush). Without it V8 grows the heap lazily on a large machine and
// keeps what it grew: 535 MB RSS in bench/ after the read scenarios, against about 265 MB with
// this ceiling at the same throughput (bench/README.md). Override with NODE_OPTIONS if needed.
export const SERVER_NODE_FLAGS = ['--max-old-space-size=192', '--import', 'tsx']
