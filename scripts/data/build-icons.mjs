// Draws the installed app's icons (project-made: no third-party artwork or brands): three white
// stumps with their bails on the game's navy, a red ball in front and an orange tick for a tip.
// One drawing, written as the SVG source and as the PNG sizes the web app manifest and iOS ask
// for: 192 and 512 px ("any"), a maskable 512 px whose drawing keeps inside the central 80 %
// safe zone on a full-bleed background (a launcher may crop it to a circle), and the 180 px
// apple-touch-icon (iOS draws its own rounded corners, so it is full-bleed too), and the site's
// favicon.ico.
// Run: node scripts/data/build-icons.mjs
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const out = path.join(root, 'packages/web/public/icons')
const NAVY = '#0b1f3a'
const NAVY_2 = '#1c3d6e'
const ORANGE = '#ea580c'

/** The drawing on a 512 unit square; `scale` shrinks it about the centre (maskable safe zone). */
const drawing = (scale) => `
  <g transform="translate(256 256) scale(${scale}) translate(-256 -256)">
    <g fill="#ffffff">
      <rect x="168" y="120" width="30" height="290" rx="8"/>
      <rect x="241" y="120" width="30" height="290" rx="8"/>
      <rect x="314" y="120" width="30" height="290" rx="8"/>
      <rect x="160" y="100" width="92" height="16" rx="8"/>
      <rect x="260" y="100" width="92" height="16" rx="8"/>
    </g>
    <g transform="translate(352 352) rotate(-28)">
      <circle r="78" fill="#b91c1c" stroke="${NAVY}" stroke-width="10"/>
      <path d="M -14 -76 Q 17 0 -14 76" fill="none" stroke="#fde2e2" stroke-width="6"/>
      <path d="M 2 -77 Q 33 0 2 77" fill="none" stroke="#fde2e2" stroke-width="6"/>
    </g>
    <path d="M 96 300 l 48 48 l 88 -104" fill="none" stroke="${ORANGE}" stroke-width="34"
      stroke-linecap="round" stroke-linejoin="round"/>
  </g>`

const background = (rounded) => `
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${NAVY_2}"/>
      <stop offset="1" stop-color="${NAVY}"/>
    </linearGradient>
  </defs>
  <rect width="512" height="512" rx="${rounded ? 96 : 0}" fill="url(#bg)"/>`

const svg = ({ rounded, scale }) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">` +
  `${background(rounded)}${drawing(scale)}</svg>\n`

const any = svg({ rounded: true, scale: 1 })
const maskable = svg({ rounded: false, scale: 0.78 })
const fullBleed = svg({ rounded: false, scale: 0.9 })

fs.mkdirSync(out, { recursive: true })
fs.writeFileSync(path.join(out, 'icon.svg'), any)
fs.writeFileSync(path.join(out, 'icon-maskable.svg'), maskable)
const png = (source, size, file) =>
  sharp(Buffer.from(source), { density: Math.ceil((72 * size) / 512) })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(out, file))
await png(any, 192, 'icon-192.png')
await png(any, 512, 'icon-512.png')
await png(maskable, 512, 'icon-maskable-512.png')
await png(fullBleed, 180, 'apple-touch-icon.png')

// favicon.ico at the site's root, for what asks that address without reading the page (feed
// readers, bookmark tools, older browsers): an icon directory of 16, 32 and 48 px PNG images,
// which every browser since Windows Vista's era reads. Header: reserved 0, type 1 (icon), count;
// then one 16-byte entry per image (width, height, no palette, planes 1, 32 bits per pixel, its
// length and its offset), then the images.
const sizes = [16, 32, 48]
const images = await Promise.all(
  sizes.map((size) =>
    sharp(Buffer.from(any), { density: Math.ceil((72 * size) / 512) })
      .resize(size, size)
      .png({ compressionLevel: 9 })
      .toBuffer(),
  ),
)
const header = Buffer.alloc(6 + 16 * sizes.length)
header.writeUInt16LE(0, 0)
header.writeUInt16LE(1, 2)
header.writeUInt16LE(sizes.length, 4)
let offset = header.length
sizes.forEach((size, i) => {
  const at = 6 + 16 * i
  header.writeUInt8(size, at)
  header.writeUInt8(size, at + 1)
  header.writeUInt16LE(1, at + 4)
  header.writeUInt16LE(32, at + 6)
  header.writeUInt32LE(images[i].length, at + 8)
  header.writeUInt32LE(offset, at + 12)
  offset += images[i].length
})
fs.writeFileSync(path.join(out, '..', 'favicon.ico'), Buffer.concat([header, ...images]))
console.log(`icons written to ${path.relative(root, out)}`)
