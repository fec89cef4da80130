// Draws the project's own club crests, one per squad: a badge shape in the club's two colours, an
// emblem for its nickname and a ribbon with its short name. Every shape is drawn here; no club's
// real logo is copied or imitated. Writes data/logos/{CODE}.svg and the {CODE}.webp the server
// publishes as logo/{id}.webp.
//
// Run: node scripts/data/build-logos.mjs [preview.png]
// With a file name it also writes a contact sheet of every crest at the sizes the app shows them
// (20, 24, 64 px and large, on light and dark grounds), to check they still read when small.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const { squads } = JSON.parse(fs.readFileSync(path.join(root, 'data/seasons/bbl-2025-26.json'), 'utf8'))
const dir = path.join(root, 'data/logos')
fs.mkdirSync(dir, { recursive: true })

// The app shows crests at 64 CSS px at most; 192 px covers a 3x screen.
const RASTER_PX = 192
const DARK_INK = '#14181f'

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** White or near-black, whichever reads on the colour. */
const ink = (hex) => (luminance(hex) > 0.4 ? DARK_INK : '#ffffff')

const r2 = (n) => Math.round(n * 10) / 10

/** A star or sunburst polygon: `points` tips alternating between two radii. */
function star(cx, cy, outer, inner, points, turn = -90) {
  const out = []
  for (let i = 0; i < points * 2; i++) {
    const rad = ((turn + (i * 180) / points) * Math.PI) / 180
    const r = i % 2 === 0 ? outer : inner
    out.push(`${r2(cx + r * Math.cos(rad))} ${r2(cy + r * Math.sin(rad))}`)
  }
  return `M${out.join(' L')} Z`
}

// Badge outlines on a 256 box, each centred near (128, 128) so one scale makes the inner field.
const BADGES = {
  shield: 'M128 14 L230 48 V122 C230 184 188 226 128 246 C68 226 26 184 26 122 V48 Z',
  arched: 'M26 78 Q26 14 128 14 Q230 14 230 78 V130 C230 188 186 228 128 246 C70 228 26 188 26 130 Z',
  round: 'M128 12 A116 116 0 1 1 127.9 12 Z',
  hexagon: 'M128 10 L230 69 V187 L128 246 L26 187 V69 Z',
  pentagon: 'M128 12 L240 94 L198 238 H58 L16 94 Z',
  concave: 'M26 30 Q128 62 230 30 V128 C230 188 186 228 128 246 C70 228 26 188 26 128 Z',
  chevron: 'M26 20 H230 V150 L128 246 L26 150 Z',
  square: 'M70 16 H186 Q240 16 240 70 V186 Q240 240 186 240 H70 Q16 240 16 186 V70 Q16 16 70 16 Z',
}

// Emblems for each nickname, drawn around (128, 94) above the ribbon. `c` is the emblem's
// colour, `field` the badge's, for cut-outs.
const EMBLEMS = {
  // Strikers: three stumps with the bails flying off.
  stumps: (c) => `
    <g fill="${c}">
      <rect x="92" y="70" width="14" height="76" rx="4"/>
      <rect x="121" y="70" width="14" height="76" rx="4"/>
      <rect x="150" y="70" width="14" height="76" rx="4"/>
      <rect x="78" y="50" width="34" height="10" rx="5" transform="rotate(-24 95 55)"/>
      <rect x="144" y="44" width="34" height="10" rx="5" transform="rotate(30 161 49)"/>
    </g>
    <circle cx="196" cy="86" r="13" fill="${c}"/>`,
  // Heat: a sun.
  sun: (c) => `
    <circle cx="128" cy="96" r="28" fill="${c}"/>
    <path d="${star(128, 96, 62, 38, 12)}" fill="${c}"/>`,
  // Hurricanes: a storm's eye with three curling arms.
  cyclone: (c) => `
    <g fill="${c}">
      ${[0, 120, 240].map((turn) => `<path transform="rotate(${turn} 128 98)" d="M114 96 C106 62 134 38 166 40 C182 41 192 50 196 62 C184 54 164 54 150 64 C140 72 138 84 140 94 Z"/>`).join('')}
    </g>
    <circle cx="128" cy="98" r="16" fill="none" stroke="${c}" stroke-width="10"/>`,
  // Renegades: an outlaw's eye mask.
  mask: (c) => `
    <path fill="${c}" fill-rule="evenodd" d="M48 80 C86 60 110 70 128 80 C146 70 170 60 208 80 C212 106 196 128 170 128 C150 128 138 116 128 108 C118 116 106 128 86 128 C60 128 44 106 48 80 Z
      M72 94 C82 84 100 84 110 96 C100 108 82 108 72 94 Z M184 94 C174 84 156 84 146 96 C156 108 174 108 184 94 Z"/>`,
  // Stars: a five-point star.
  star: (c) => `<path d="${star(128, 100, 66, 27, 5)}" fill="${c}"/>`,
  // Scorchers: a flame with a hot core.
  flame: (c, field) => `
    <path fill="${c}" d="M128 34 C150 62 178 80 172 116 C168 140 150 152 128 152 C106 152 86 140 84 116 C82 94 98 82 104 60 C114 74 118 82 122 84 C126 68 122 52 128 34 Z"/>
    <path fill="${field}" d="M128 84 C140 100 152 110 148 126 C146 138 138 144 128 144 C118 144 110 138 108 126 C106 114 116 106 120 94 C124 100 126 102 128 102 Z"/>`,
  // Sixers: a ball sailing over the rope.
  ball: (c, field) => `
    <path d="M52 148 Q76 84 124 76" fill="none" stroke="${c}" stroke-width="7" stroke-linecap="round" stroke-dasharray="2 16"/>
    <circle cx="158" cy="88" r="32" fill="${c}"/>
    <path d="M134 72 L174 112 M142 64 L182 104" fill="none" stroke="${field}" stroke-width="4"/>
    <path d="M138 68 L178 108" fill="none" stroke="${field}" stroke-width="3" stroke-dasharray="3 4"/>`,
  // Thunder: a lightning bolt.
  bolt: (c) => `<path fill="${c}" d="M146 28 L84 108 H120 L104 160 L176 74 H138 L162 28 Z"/>`,
}

const DESIGN = {
  STR: { badge: 'shield', emblem: 'stumps' },
  HEA: { badge: 'round', emblem: 'sun' },
  HUR: { badge: 'arched', emblem: 'cyclone' },
  REN: { badge: 'concave', emblem: 'mask' },
  STA: { badge: 'pentagon', emblem: 'star' },
  SCO: { badge: 'square', emblem: 'flame' },
  SIX: { badge: 'hexagon', emblem: 'ball' },
  THU: { badge: 'chevron', emblem: 'bolt' },
}

function crest(s) {
  const design = DESIGN[s.code]
  if (!design) throw new Error(`no crest designed for squad ${s.code}`)
  const badge = BADGES[design.badge]
  const field = s.colour
  const rim = s.secondColour
  const mark = ink(field)
  const label = ink(rim)
  // A white keyline round the badge keeps dark rims visible on a dark page.
  return `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
  <title>${s.name}</title>
  <path d="${badge}" fill="${rim}" stroke="#ffffff" stroke-width="8" stroke-linejoin="round" transform="translate(128 128) scale(0.96) translate(-128 -128)"/>
  <path d="${badge}" fill="${field}" transform="translate(128 128) scale(0.84) translate(-128 -128)"/>
  ${EMBLEMS[design.emblem](mark, field)}
  <path d="M10 164 H246 L234 186 L246 208 H10 L22 186 Z" fill="${rim}" stroke="#ffffff" stroke-width="4" stroke-linejoin="round"/>
  <text x="128" y="199" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-weight="700" font-size="34" letter-spacing="4" fill="${label}">${s.shortName}</text>
</svg>
`
}

for (const s of squads) {
  const svg = crest(s)
  fs.writeFileSync(path.join(dir, `${s.code}.svg`), svg)
  await sharp(Buffer.from(svg), { density: (72 * RASTER_PX) / 256 })
    .resize(RASTER_PX, RASTER_PX)
    .webp({ quality: 88, alphaQuality: 90, effort: 6 })
    .toFile(path.join(dir, `${s.code}.webp`))
}
console.log(`${squads.length} crests written to data/logos`)

const preview = process.argv[2]
if (preview) {
  const sizes = [20, 24, 64, 128]
  const cell = 140
  const composites = []
  for (const [row, s] of squads.entries()) {
    // Each size twice: on the light half of the sheet and on the dark half.
    for (const x0 of [0, sizes.length * cell]) {
      for (const [col, size] of sizes.entries()) {
        const png = await sharp(path.join(dir, `${s.code}.webp`)).resize(size, size).png().toBuffer()
        composites.push({ input: png, left: x0 + col * cell + 6, top: row * cell + 6 })
      }
    }
  }
  const width = sizes.length * cell * 2
  const height = squads.length * cell
  const grounds = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="${width / 2}" height="${height}" fill="#ffffff"/>
    <rect x="${width / 2}" width="${width / 2}" height="${height}" fill="#111827"/></svg>`
  await sharp(Buffer.from(grounds)).composite(composites).png().toFile(preview)
  console.log(`preview written to ${preview}`)
}
