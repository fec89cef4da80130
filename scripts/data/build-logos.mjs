// Generates the project's own squad logos: a shield in the club's two colours with its code.
// No third-party marks are used or imitated. Run: node scripts/data/build-logos.mjs
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const { squads } = JSON.parse(fs.readFileSync(path.join(root, 'data/seasons/bbl-2025-26.json'), 'utf8'))
const dir = path.join(root, 'data/logos')
fs.mkdirSync(dir, { recursive: true })

/** Black or white text, whichever reads better on the colour (WCAG relative luminance). */
function ink(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.4 ? '#111111' : '#ffffff'
}

for (const s of squads) {
  const text = ink(s.colour)
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
  <path d="M128 12 L226 46 V124 C226 180 186 222 128 244 C70 222 30 180 30 124 V46 Z" fill="${s.secondColour}"/>
  <path d="M128 26 L212 55 V124 C212 172 178 208 128 228 C78 208 44 172 44 124 V55 Z" fill="${s.colour}"/>
  <path d="M44 150 C90 128 166 128 212 150 L212 162 C166 140 90 140 44 162 Z" fill="${s.secondColour}" opacity="0.9"/>
  <circle cx="128" cy="70" r="13" fill="none" stroke="${text}" stroke-width="5"/>
  <path d="M118 62 Q128 70 118 78 M138 62 Q128 70 138 78" stroke="${text}" stroke-width="2.5" fill="none"/>
  <text x="128" y="134" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-weight="700" font-size="54" fill="${text}" letter-spacing="2">${s.code}</text>
</svg>
`
  fs.writeFileSync(path.join(dir, `${s.code}.svg`), svg)
  await sharp(Buffer.from(svg)).webp({ quality: 90 }).toFile(path.join(dir, `${s.code}.webp`))
}
console.log(`${squads.length} logos written to data/logos`)
