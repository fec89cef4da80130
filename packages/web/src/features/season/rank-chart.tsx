import { AxisBottom, AxisLeft } from '@visx/axis'
import { Group } from '@visx/group'
import { scaleLinear, scalePoint } from '@visx/scale'
import { LinePath } from '@visx/shape'
import { useWidth } from './points-chart.tsx'
import styles from './season.module.css'

const HEIGHT = 200
/** Room on the left for a compact rank ("12K") at 12 px. */
const MARGIN = { top: 12, right: 14, bottom: 28, left: 44 }

/** A rank as a tick label: 1, 250, 12K, 1.2M, so it fits the axis at 390 px. */
const compact = new Intl.NumberFormat('en-AU', { notation: 'compact', maximumFractionDigits: 1 })

export interface RankPoint {
  round: number
  rank: number
}

/**
 * The overall rank after each round (issue 31) as a line, rank 1 at the top (the axis runs
 * downwards, as a ladder does), a dot per round. Drawn for sighted readers only (aria-hidden);
 * the table beside it says the same to a screen reader. `of` is how many are ranked, the axis's
 * far end.
 */
export function RankChart({ points, of }: { points: readonly RankPoint[]; of: number }) {
  const { ref, width } = useWidth()
  const innerWidth = width - MARGIN.left - MARGIN.right
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom
  const x = scalePoint<number>({
    domain: points.map((p) => p.round),
    range: [0, innerWidth],
    padding: 0.5,
  })
  const worst = Math.max(2, of, ...points.map((p) => p.rank))
  // Inverted: rank 1 is drawn at the top.
  const y = scaleLinear<number>({ domain: [1, worst], range: [0, innerHeight], nice: true })
  const step = x.step()
  const every = step < 24 ? 2 : 1
  const at = (p: RankPoint) => ({ x: x(p.round) ?? 0, y: y(p.rank) })

  return (
    <div ref={ref} className={styles.chartBox}>
      <svg width={width} height={HEIGHT} aria-hidden="true" className={styles.chart}>
        <Group left={MARGIN.left} top={MARGIN.top}>
          <LinePath
            data={[...points]}
            x={(p) => at(p).x}
            y={(p) => at(p).y}
            className={styles.rankLine}
          />
          {points.map((p) => (
            <circle key={p.round} cx={at(p).x} cy={at(p).y} r={4} className={styles.rankDot} />
          ))}
          <AxisLeft
            scale={y}
            numTicks={4}
            tickFormat={(v) => compact.format(Math.max(1, Math.round(Number(v))))}
            axisClassName={styles.axis}
            tickClassName={styles.tick}
          />
          <AxisBottom
            top={innerHeight}
            scale={x}
            tickValues={points.map((p) => p.round).filter((_, i) => i % every === 0)}
            tickFormat={(n) => `W${n}`}
            axisClassName={styles.axis}
            tickClassName={styles.tick}
          />
        </Group>
      </svg>
    </div>
  )
}
