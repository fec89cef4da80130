// Draws the demo's adverts (project-made, no third-party artwork or brands): two house promotions
// of the game itself, each at a desktop and a mobile size, written to packages/web/public/ads/
// and served by the web app. The demo seed links the leaderboard to the prizes page and the
// medium rectangle to the game rules (packages/server/src/seed/demo.ts), so each image says
// what its link opens. Drawn at twice the slot size, so they stay sharp on a phone's screen.
// Run: node scripts/data/build-adverts.mjs
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const out = path.join(root, 'packages/web/public/ads')
const SCALE = 2

const FONT = "font-family=\"DejaVu Sans, Arial, sans-serif\""
const NAVY = '#0b1f3a'
const NAVY_2 = '#1c3d6e'
const ORANGE = '#ea580c'
const PEACH = '#fdba74'
const GOLD = '#f2c94c'

/** A cricket ball: red leather, a stitched seam, a highlight. */
const ball = (cx, cy, r) => `
  <g transform="translate(${cx} ${cy}) rotate(-28)">
    <circle r="${r}" fill="#b91c1c"/>
    <circle r="${r}" fill="url(#shine)"/>
    <path d="M ${-r * 0.18} ${-r * 0.98} Q ${r * 0.22} 0 ${-r * 0.18} ${r * 0.98}" fill="none" stroke="#fde2e2" stroke-width="${r * 0.06}"/>
    <path d="M ${r * 0.02} ${-r * 0.99} Q ${r * 0.42} 0 ${r * 0.02} ${r * 0.99}" fill="none" stroke="#fde2e2" stroke-width="${r * 0.06}"/>
    ${Array.from({ length: 9 }, (_, i) => {
      const t = (i + 1) / 10
      const y = -r * 0.95 + t * r * 1.9
      return `<path d="M ${r * 0.0} ${y} l ${r * 0.2} 0" stroke="#fde2e2" stroke-width="${r * 0.035}"/>`
    }).join('')}
  </g>`

/** Three stumps and two bails, in outline. */
const stumps = (x, y, h, colour, opacity = 1) => {
  const w = h * 0.09
  const gap = h * 0.2
  return `<g fill="${colour}" opacity="${opacity}">
    ${[0, 1, 2].map((i) => `<rect x="${x + i * gap}" y="${y}" width="${w}" height="${h}" rx="${w / 2}"/>`).join('')}
    <rect x="${x - w * 0.2}" y="${y - w * 1.1}" width="${gap * 1.05}" height="${w * 0.8}" rx="${w * 0.4}"/>
    <rect x="${x + gap * 1.05}" y="${y - w * 1.1}" width="${gap * 1.05}" height="${w * 0.8}" rx="${w * 0.4}"/>
  </g>`
}

/** A call-to-action pill. */
const button = (x, y, w, h, label, size) => `
  <rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${h / 2}" fill="${ORANGE}"/>
  <text x="${x + w / 2}" y="${y + h / 2 + size * 0.36}" text-anchor="middle" ${FONT} font-weight="700" font-size="${size}" fill="#ffffff">${label}</text>`

const defs = (w, h) => `<defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${NAVY}"/><stop offset="1" stop-color="${NAVY_2}"/>
    </linearGradient>
    <radialGradient id="shine" cx="0.35" cy="0.3" r="0.75">
      <stop offset="0" stop-color="#ffffff" stop-opacity="0.45"/><stop offset="0.5" stop-color="#ffffff" stop-opacity="0"/>
    </radialGradient>
    <radialGradient id="glow" cx="0.85" cy="0.2" r="0.6">
      <stop offset="0" stop-color="${ORANGE}" stop-opacity="0.45"/><stop offset="1" stop-color="${ORANGE}" stop-opacity="0"/>
    </radialGradient>
  </defs>
  <rect width="${w}" height="${h}" fill="url(#bg)"/>
  <rect width="${w}" height="${h}" fill="url(#glow)"/>`

// Leaderboard, desktop 728 x 90: the prize.
const leaderboardDesktop = (w, h) => `
  ${defs(w, h)}
  ${stumps(w * 0.8, h * 0.2, h * 0.75, '#ffffff', 0.08)}
  ${ball(46, h / 2, 28)}
  <text x="92" y="38" ${FONT} font-weight="700" font-size="13" letter-spacing="2" fill="${PEACH}">BIG BASH TIPPING · FREE TO PLAY</text>
  <text x="92" y="66" ${FONT} font-weight="800" font-size="25" fill="#ffffff">Top the rankings, win <tspan fill="${GOLD}">$10,000</tspan></text>
  ${button(w - 176, h / 2 - 20, 156, 40, 'See the prizes ›', 16)}`

// Leaderboard, mobile 320 x 50.
const leaderboardMobile = (w, h) => `
  ${defs(w, h)}
  ${ball(24, h / 2, 15)}
  <text x="48" y="21" ${FONT} font-weight="700" font-size="9" letter-spacing="1.2" fill="${PEACH}">BIG BASH TIPPING</text>
  <text x="48" y="38" ${FONT} font-weight="800" font-size="14" fill="#ffffff">Win <tspan fill="${GOLD}">$10,000</tspan></text>
  ${button(w - 104, h / 2 - 14, 94, 28, 'Prizes ›', 12)}`

// Medium rectangle, desktop 300 x 250: the Golden Week.
const mrecDesktop = (w, h) => `
  ${defs(w, h)}
  ${stumps(w - 96, 40, 120, '#ffffff', 0.08)}
  <rect x="20" y="22" width="132" height="26" rx="13" fill="${GOLD}"/>
  <text x="86" y="40" text-anchor="middle" ${FONT} font-weight="800" font-size="12" letter-spacing="1.5" fill="${NAVY}">GOLDEN WEEK</text>
  <text x="20" y="92" ${FONT} font-weight="800" font-size="30" fill="#ffffff">Every tip</text>
  <text x="20" y="128" ${FONT} font-weight="800" font-size="30" fill="${GOLD}">counts double</text>
  <text x="20" y="158" ${FONT} font-size="14" fill="#dbe4f3">Tip all week, bank a Clean Sweep</text>
  <text x="20" y="176" ${FONT} font-size="14" fill="#dbe4f3">and climb the ladder.</text>
  ${ball(w - 46, h - 58, 26)}
  ${button(20, h - 58, 150, 38, 'How it works ›', 15)}`

// Medium rectangle, mobile 320 x 100.
const mrecMobile = (w, h) => `
  ${defs(w, h)}
  ${ball(w - 26, 26, 15)}
  <rect x="14" y="12" width="104" height="20" rx="10" fill="${GOLD}"/>
  <text x="66" y="26" text-anchor="middle" ${FONT} font-weight="800" font-size="10" letter-spacing="1.2" fill="${NAVY}">GOLDEN WEEK</text>
  <text x="14" y="57" ${FONT} font-weight="800" font-size="18" fill="#ffffff">Every tip counts <tspan fill="${GOLD}">double</tspan></text>
  <text x="14" y="82" ${FONT} font-size="11" fill="#dbe4f3">Bank a Clean Sweep too.</text>
  ${button(w - 116, h - 36, 104, 26, 'How it works ›', 11)}`

const images = [
  { name: 'demo-leaderboard-desktop', w: 728, h: 90, draw: leaderboardDesktop },
  { name: 'demo-leaderboard-mobile', w: 320, h: 50, draw: leaderboardMobile },
  { name: 'demo-mrec-desktop', w: 300, h: 250, draw: mrecDesktop },
  { name: 'demo-mrec-mobile', w: 320, h: 100, draw: mrecMobile },
]

for (const { name, w, h, draw } of images) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w * SCALE}" height="${h * SCALE}" viewBox="0 0 ${w} ${h}">${draw(w, h)}</svg>`
  await sharp(Buffer.from(svg))
    .png({ compressionLevel: 9, palette: true, quality: 90 })
    .toFile(path.join(out, `${name}.png`))
  console.log(`packages/web/public/ads/${name}.png written`)
}
