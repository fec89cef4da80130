import styles from './hero-art.module.css'

/** One pickable match on the illustrated phone: two club badges, the tipped one ticked. */
function MiniMatch({ y, tipped }: { y: number; tipped: 'left' | 'right' }) {
  const badge = 'M0 -14 L12 -10 V0 C12 8 6 13 0 16 C-6 13 -12 8 -12 0 V-10 Z'
  const tickX = tipped === 'left' ? 196 : 264
  return (
    <g>
      <rect className={styles.card} x="166" y={y} width="128" height="58" rx="10" />
      <g transform={`translate(196 ${y + 28})`}>
        <path className={styles.teamA} d={badge} />
      </g>
      <g transform={`translate(264 ${y + 28})`}>
        <path className={styles.teamB} d={badge} />
      </g>
      <rect className={styles.muted} x="220" y={y + 25} width="20" height="6" rx="3" />
      <rect
        className={styles.pick}
        x={tickX - 22}
        y={y + 4}
        width="44"
        height="50"
        rx="9"
        fill="none"
        strokeWidth="3"
      />
      <circle className={styles.tick} cx={tickX + 16} cy={y + 10} r="8" />
      <path
        className={styles.tickMark}
        d={`M${tickX + 12} ${y + 10} l3 3 l5 -6`}
        fill="none"
        strokeWidth="2.4"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </g>
  )
}

/**
 * The landing page's hero illustration, drawn for this project: a night match under
 * floodlights, a six sailing out of the ground, and a phone with a round being tipped. Inline,
 * so it costs no request and paints with the text; its colours are tokens, so the phone's
 * screen follows the light or dark scheme and the sport's brand. Decorative: the hero's text
 * says everything it shows.
 */
export function HeroArt({ className }: { className?: string }) {
  return (
    <svg
      className={`${styles.art} ${className ?? ''}`}
      viewBox="0 0 440 360"
      width="440"
      height="360"
      aria-hidden="true"
      focusable="false"
    >
      <circle className={styles.glow} cx="236" cy="160" r="150" />
      {/* Floodlights and their beams. */}
      {[44, 396].map((x) => (
        <g key={x}>
          <path
            className={styles.beam}
            d={`M${x - 20} 44 L${x + 20} 44 L${x < 220 ? 250 : 310} 320 L${x < 220 ? 130 : 190} 320 Z`}
          />
          <rect className={styles.pole} x={x - 3} y="44" width="6" height="230" />
          <rect className={styles.lampHead} x={x - 24} y="18" width="48" height="30" rx="5" />
          {[0, 1, 2].map((col) =>
            [0, 1].map((row) => (
              <circle
                key={`${col}-${row}`}
                className={styles.lamp}
                cx={x - 14 + col * 14}
                cy={27 + row * 12}
                r="4.5"
              />
            )),
          )}
        </g>
      ))}
      {/* The ground: outfield, square and pitch, with the far stumps. */}
      <ellipse className={styles.grass} cx="220" cy="314" rx="216" ry="44" />
      <ellipse className={styles.grassLight} cx="220" cy="316" rx="160" ry="30" />
      <path className={styles.pitch} d="M209 290 H231 L240 346 H200 Z" />
      <g className={styles.stumps}>
        <rect x="213" y="276" width="3" height="16" rx="1" />
        <rect x="218.5" y="276" width="3" height="16" rx="1" />
        <rect x="224" y="276" width="3" height="16" rx="1" />
      </g>
      {/* The six: its flight from the pitch and the ball leaving the ground. */}
      <path
        className={styles.trail}
        d="M226 292 Q318 40 388 74"
        fill="none"
        strokeWidth="4"
        strokeLinecap="round"
        strokeDasharray="1 12"
      />
      <circle className={styles.ball} cx="394" cy="78" r="17" />
      <path
        className={styles.seam}
        d="M383 66 L406 89 M380 72 L400 92"
        fill="none"
        strokeWidth="2"
      />
      {/* The phone, a round open for tipping on its screen. */}
      <g transform="rotate(-6 230 180)">
        <rect className={styles.phone} x="150" y="24" width="160" height="300" rx="26" />
        <rect className={styles.screen} x="158" y="34" width="144" height="280" rx="19" />
        <path
          className={styles.screenBar}
          d="M158 53 Q158 34 177 34 H283 Q302 34 302 53 V70 H158 Z"
        />
        <rect className={styles.barText} x="170" y="48" width="58" height="8" rx="4" />
        <rect className={styles.barPill} x="258" y="45" width="32" height="14" rx="7" />
        <rect className={styles.muted} x="166" y="80" width="70" height="7" rx="3.5" />
        <MiniMatch y={96} tipped="left" />
        <MiniMatch y={162} tipped="right" />
        <MiniMatch y={228} tipped="left" />
        <rect className={styles.save} x="186" y="292" width="88" height="16" rx="8" />
      </g>
      {/* Confetti for the Clean Sweep. */}
      <g className={styles.confetti}>
        <rect x="112" y="92" width="8" height="4" rx="1" transform="rotate(30 116 94)" />
        <rect x="332" y="150" width="8" height="4" rx="1" transform="rotate(-40 336 152)" />
        <rect x="120" y="200" width="7" height="4" rx="1" transform="rotate(70 124 202)" />
        <rect x="346" y="226" width="8" height="4" rx="1" transform="rotate(15 350 228)" />
      </g>
      <g className={styles.confettiGold}>
        <circle cx="98" cy="150" r="3.5" />
        <circle cx="356" cy="112" r="3" />
        <circle cx="330" cy="262" r="3.5" />
        <circle cx="136" cy="252" r="3" />
      </g>
    </svg>
  )
}
