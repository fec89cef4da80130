// Generates the project's own social share card (1200x630 PNG) used by share pages' Open Graph
// image. Run: node scripts/data/build-share-card.mjs
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#0b1f3a"/>
      <stop offset="1" stop-color="#13325e"/>
    </linearGradient>
  </defs>
  <rect width="1200" height="630" fill="url(#bg)"/>
  <circle cx="1040" cy="120" r="220" fill="#c2410c" opacity="0.25"/>
  <circle cx="1100" cy="560" r="160" fill="#fdba74" opacity="0.15"/>
  <rect x="80" y="96" width="120" height="120" rx="28" fill="#c2410c"/>
  <text x="140" y="178" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-weight="700" font-size="60" fill="#ffffff">BB</text>
  <text x="80" y="330" font-family="DejaVu Sans, Arial, sans-serif" font-weight="700" font-size="84" fill="#ffffff">Big Bash Tipping</text>
  <text x="80" y="410" font-family="DejaVu Sans, Arial, sans-serif" font-size="40" fill="#dbe4f3">Tip every match. Call the sixes. Beat your mates.</text>
  <text x="80" y="520" font-family="DejaVu Sans, Arial, sans-serif" font-weight="700" font-size="34" fill="#fdba74">BBL · WBBL · free to play</text>
</svg>
`
await sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toFile(path.join(root, 'data/share-card.png'))
console.log('data/share-card.png written')
