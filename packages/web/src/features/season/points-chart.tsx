import { useLayoutEffect, useRef, useState } from 'react'
import { AxisBottom, AxisLeft } from '@visx/axis'
import { Group } from '@visx/group'
import { scaleBand, scaleLinear } from '@visx/scale'
import { Bar, Line } from '@visx/shape'
import type { SeasonRound } from '@tipping/contract/season'
import styles from './season.module.css'

const HEIGHT = 220
const MARGIN = { top: 12, right: 8, bottom: 28, left: 32 }
/** The width drawn before the first measurement (and in tests, which have no layout). */
const FALLBACK_WIDTH = 358

const fitted = (boxWidth: number) => Math.max(200, Math.floor(boxWidth))

/** The drawing's width follows its box, so labels keep their size at 390 px and at 1280 px. */
export function useWidth() {
  const ref = useRef<HTMLDivElement>(null)
  const [width, setWidth] = useState(FALLBACK_WIDTH)
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    // Measured before the first paint: a screen narrower than the fallback never shows a chart
    // wider than itself, not even until the observer's first report (a frame or more later on a
    // busy phone). The box has no padding, so its client width is the drawing's.
    if (el.clientWidth > 0) setWidth(fitted(el.clientWidth))
    if (typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(fitted(entry.contentRect.width))
    })
    observer.observe(el)
    return () => observer.disconnect()
  }, [])
  return { ref, width }
}

/**
 * Points per round (issue 31): the round's best as a pale bar behind, my points as a solid bar in
 * front, the round's average as a dark line across. Drawn for sighted readers only (aria-hidden);
 * the table beside it (visually hidden) says the same to a screen reader.
 */
export function PointsChart({ rounds }: { rounds: readonly SeasonRound[] }) {
  const { ref, width } = useWidth()
  const innerWidth = width - MARGIN.left - MARGIN.right
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom
  const x = scaleBand<number>({
    domain: rounds.map((r) => r.round),
    range: [0, innerWidth],
    padding: 0.2,
  })
  const top = Math.max(1, ...rounds.map((r) => Math.max(r.best, r.points)))
  const y = scaleLinear<number>({ domain: [0, top], range: [innerHeight, 0], nice: true })
  const band = x.bandwidth()
  // Many rounds on a phone: label every other one so the labels never touch.
  const every = band < 18 ? 2 : 1

  return (
    <div ref={ref} className={styles.chartBox}>
      <svg width={width} height={HEIGHT} aria-hidden="true" className={styles.chart}>
        <Group left={MARGIN.left} top={MARGIN.top}>
          {rounds.map((r) => {
            const left = x(r.round) ?? 0
            const mine = band * 0.6
            return (
              <g key={r.round}>
                <Bar
                  x={left}
                  y={y(r.best)}
                  width={band}
                  height={innerHeight - y(r.best)}
                  className={styles.best}
                />
                <Bar
                  x={left + (band - mine) / 2}
                  y={y(r.points)}
                  width={mine}
                  height={innerHeight - y(r.points)}
                  className={r.isGoldenWeek ? styles.mineGolden : styles.mine}
                />
                {r.average !== null ? (
                  <Line
                    from={{ x: left - 2, y: y(r.average) }}
                    to={{ x: left + band + 2, y: y(r.average) }}
                    className={styles.average}
                  />
                ) : null}
              </g>
            )
          })}
          <AxisLeft
            scale={y}
            numTicks={4}
            tickFormat={(v) => String(v)}
            axisClassName={styles.axis}
            tickClassName={styles.tick}
          />
          <AxisBottom
            top={innerHeight}
            scale={x}
            tickValues={rounds.map((r) => r.round).filter((_, i) => i % every === 0)}
            tickFormat={(n) => `W${n}`}
            axisClassName={styles.axis}
            tickClassName={styles.tick}
          />
        </Group>
      </svg>
    </div>
  )
}

/**
 * The points chart's key, hidden from screen readers (the table beside the chart says the same).
 * `of` whose best and average the grey bars and the line are: "Round's" or "League's".
 */
export function PointsLegend({ of, golden = false }: { of: string; golden?: boolean }) {
  return (
    <ul className={styles.legend} aria-hidden="true">
      <li>
        <span className={`${styles.swatch} ${styles.swatchMine}`} /> My points
      </li>
      {golden && (
        <li>
          <span className={`${styles.swatch} ${styles.swatchGolden}`} /> My points, Golden Week
        </li>
      )}
      <li>
        <span className={`${styles.swatch} ${styles.swatchBest}`} /> {of} best
      </li>
      <li>
        <span className={`${styles.swatch} ${styles.swatchAverage}`} /> {of} average
      </li>
    </ul>
  )
}
