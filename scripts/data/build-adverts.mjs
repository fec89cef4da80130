// Generates the demo's project-made advert images (no third-party artwork): for each slot type a
// desktop and a mobile size, written to packages/web/public/ads/ and served by the web app.
// Run: node scripts/data/build-adverts.mjs
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const out = path.join(root, 'packages/web/public/ads')

// The standard IAB sizes: medium rectangle, and leaderboard (desktop) / mobile banner.
const images = [
  { name: 'demo-mrec-desktop', w: 300, h: 250, title: 'Tip every match', line: 'Desktop MREC · 300×250' },
  { name: 'demo-mrec-mobile', w: 320, h: 100, title: 'Tip every match', line: 'Mobile · 320×100' },
  { name: 'demo-leaderboard-desktop', w: 728, h: 90, title: 'Call the sixes. Beat your mates.', line: 'Desktop leaderboard · 728×90' },
  { name: 'demo-leaderboard-mobile', w: 320, h: 50, title: 'Beat your mates', line: 'Mobile · 320×50' },
]

for (const { name, w, h, title, line } of images) {
  const big = Math.round(Math.min(h * 0.28, w / 12))
  const small = Math.round(big * 0.55)
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="#c2410c"/><stop offset="1" stop-color="#7c2d12"/>
  </linearGradient></defs>
  <rect width="${w}" height="${h}" fill="url(#g)"/>
  <circle cx="${w - h * 0.3}" cy="${h * 0.2}" r="${h * 0.5}" fill="#fdba74" opacity="0.2"/>
  <text x="${w / 2}" y="${h / 2}" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-weight="700" font-size="${big}" fill="#ffffff">${title}</text>
  <text x="${w / 2}" y="${h / 2 + small * 1.5}" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="${small}" fill="#ffedd5">${line}</text>
</svg>`
  await sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toFile(path.join(out, `${name}.png`))
  console.log(`packages/web/public/ads/${name}.png written`)
}
