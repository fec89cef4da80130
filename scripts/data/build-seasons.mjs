// Builds data/seasons/*.json and data/results/*.json from the public source files kept in
// data/source/ (copied unchanged from the shared data folder; see data/README.md).
// Run: node scripts/data/build-seasons.mjs
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseCsv } from './csv.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const src = (p) => path.join(root, 'data/source', p)
const out = (p, v) => {
  fs.mkdirSync(path.dirname(path.join(root, 'data', p)), { recursive: true })
  fs.writeFileSync(path.join(root, 'data', p), `${JSON.stringify(v, null, 2)}\n`)
}
const read = (p) => fs.readFileSync(src(p), 'utf8')

const NAMED_COLOURS = { black: '#000000', white: '#ffffff' }
const NICKNAMES = { STR: 'Strikers', HEA: 'Heat', HUR: 'Hurricanes', REN: 'Renegades', STA: 'Stars', SCO: 'Scorchers', SIX: 'Sixers', THU: 'Thunder' }
const HOME_CITY = { STR: 'Adelaide', HEA: 'Brisbane', HUR: 'Hobart', REN: 'Melbourne', STA: 'Melbourne', SCO: 'Perth', SIX: 'Sydney', THU: 'Sydney' }
const clubs = parseCsv(read('clubs/clubs.csv'))
const squads = clubs.map((c) => ({
  code: c.abbrev,
  name: c.current_name,
  shortName: c.abbrev,
  nickname: NICKNAMES[c.abbrev],
  colour: c.team_colours.toLowerCase(),
  secondColour: (NAMED_COLOURS[c.second_colour] ?? c.second_colour).toLowerCase(),
}))
const codeOf = (name) => {
  const club = clubs.find((c) => c.current_name === name.trim())
  if (!club) throw new Error(`Unknown club ${name}`)
  return club.abbrev
}

// Every name a venue goes by in the sources -> its key.
const venueRows = parseCsv(read('venues/venues.csv'))
const PLAIN_NAMES = { gabba: 'The Gabba', scg: 'Sydney Cricket Ground', mcg: 'Melbourne Cricket Ground', docklands: 'Docklands Stadium', kardinia_park: 'Kardinia Park', waca: 'WACA Ground', sydney_showground: 'Sydney Showground Stadium', utas_stadium: 'University of Tasmania Stadium', coffs_harbour: 'Coffs Harbour International Stadium' }
const venueIndex = new Map()
for (const v of venueRows) {
  const names = [
    ...v.cricsheet_venue_names.split(';'),
    ...v.fixture_source_names.split(';'),
    ...v.commercial_or_other_names.split('/'),
  ]
  for (const n of names) {
    const clean = n.replace(/\(.*?\)/g, '').trim().toLowerCase()
    if (clean) venueIndex.set(clean, v.venue_key)
  }
}
const venueKey = (name) => {
  const n = name.replace(/^TBC -> played at /, '').replace(/\(.*?\)/g, '').replace(/\s+,/g, ',').trim().toLowerCase()
  const key = venueIndex.get(n) ?? venueIndex.get(n.split(',')[0].trim())
  if (!key) throw new Error(`Unknown venue ${name}`)
  return key
}
const venuesFor = (keys) =>
  venueRows
    .filter((v) => keys.has(v.venue_key))
    .map((v) => ({
      key: v.venue_key,
      name: PLAIN_NAMES[v.venue_key] ?? v.cricsheet_venue_names.split(',')[0].trim(),
      city: v.city.replace(/\s*\(.*\)$/, ''),
      state: v.state,
      timezone: v.iana_timezone,
    }))

const ATTRIBUTION = [
  'Ball-by-ball match files and match ids: Cricsheet (cricsheet.org), Open Data Commons Attribution License (ODC-BY).',
  'Fixture times for 2025-26: the public fixturedownload.com feed.',
  'Published ladders: cricket.com.au and sportskeeda.com articles (URLs in data/source/ladders/published.csv).',
  'Squad colours: a public list of club colours.',
]

/** Each round's last match (by start) is its Super Sixes margin game (GAME_RULES.md default). */
function markMarginGames(rounds) {
  for (const r of rounds) {
    const last = [...r.matches].sort((a, b) => a.startsAt.localeCompare(b.startsAt) || a.number - b.number).at(-1)
    for (const m of r.matches) m.marginGame = m === last
  }
  return rounds
}

const overs = (s) => String(s).trim()

// ---- BBL|15 (2025-26): real fixture, rounds and UTC start times ----
{
  const fixture = JSON.parse(read('fixtures/bbl-2025-26.json'))
  const results = parseCsv(read('results/bbl-2025-26.csv'))
  const byNumber = new Map(results.map((r) => [Number(r.match_number), r]))
  const rounds = new Map()
  for (const f of fixture) {
    const r = byNumber.get(f.MatchNumber)
    const final = f.MatchNumber > 40
    const home = final ? codeOf(r.home_team) : codeOf(f.HomeTeam)
    const away = final ? codeOf(r.away_team) : codeOf(f.AwayTeam)
    const venue = venueKey(f.Location === 'TBC' ? r.venue_fixturedownload : f.Location)
    const list = rounds.get(f.RoundNumber) ?? []
    list.push({
      number: f.MatchNumber,
      startsAt: new Date(f.DateUtc.replace(' ', 'T')).toISOString().replace('.000Z', 'Z'),
      venue,
      home,
      away,
      marginGame: false,
      stage: final ? 'final' : 'regular',
      assumed: [],
    })
    rounds.set(f.RoundNumber, list)
  }
  const FINAL_LABELS = { 6: 'Finals Week 1', 7: 'Challenger', 8: 'Final' }
  const roundList = markMarginGames(
    [...rounds].sort(([a], [b]) => a - b).map(([number, matches]) => ({ number, label: FINAL_LABELS[number] ?? `Week ${number}`, matches })),
  )
  const keys = new Set(roundList.flatMap((r) => r.matches.map((m) => m.venue)))
  out('seasons/bbl-2025-26.json', {
    sport: 'bbl',
    season: 15,
    name: 'Big Bash League',
    year: '2025-26',
    goldenWeekRound: 4,
    ladderPoints: { win: 2, noResult: 1, tie: 1, loss: 0 },
    squads,
    venues: venuesFor(keys),
    rounds: roundList,
    assumptions: [
      'Margin game (Super Sixes): the fixture marks none, so the last match of each round is the margin game.',
      'Golden Week: round 4, a configuration choice of this project.',
      'Finals (matches 41-44) are listed with the sides and venues they were played with.',
    ],
    sources: ATTRIBUTION,
  })
  const outResults = []
  for (const r of results) {
    const number = Number(r.match_number)
    const fixtureRow = roundList.flatMap((x) => x.matches).find((m) => m.number === number)
    const noResult = /no result/i.test(r.note) || /no result/i.test(r.result)
    if (!r.winner && !noResult) continue // unverified rows without a winner are left out
    const innings = (team) => {
      if (!r.bf_runs) return null
      const first = codeOf(r.batting_first) === team
      const runs = first ? r.bf_runs : r.bs_runs
      if (runs === '') return null
      return { runs: Number(runs), wickets: Number(first ? r.bf_wkts : r.bs_wkts), overs: overs(first ? r.bf_overs : r.bs_overs) }
    }
    outResults.push({
      match: number,
      winner: noResult ? null : codeOf(r.winner),
      outcome: noResult ? 'no_result' : 'win',
      home: noResult ? null : innings(fixtureRow.home),
      away: noResult ? null : innings(fixtureRow.away),
      sixes: null,
      method: r.method || null,
      cricsheetId: (r.cricsheet_id.match(/^\d+/) ?? [null])[0],
      note: r.note || null,
    })
  }
  out('results/bbl-2025-26.json', { sport: 'bbl', season: 15, results: outResults })
}

// ---- WBBL|11 (2025-26): dates, venues, batting order and winners; the rest is assumed ----
{
  const rows = parseCsv(read('results/wbbl-2025-26-partial.csv'))
  // Match 26 has no date or venue: placed between its neighbours by Cricsheet id, both assumed.
  const m26 = rows.find((r) => r.cricsheet_id === '1494551')
  m26.date = '2025-11-27'
  m26.venue = 'Allan Border Field, Brisbane'
  m26.assumedDateVenue = true
  const ordered = [...rows].sort((a, b) => a.date.localeCompare(b.date) || a.cricsheet_id.localeCompare(b.cricsheet_id))
  const first = Date.parse(`${ordered[0].date}T00:00:00Z`)
  const perDay = new Map()
  const zones = new Map(venueRows.map((v) => [v.venue_key, v.iana_timezone]))
  const matches = ordered.map((r, i) => {
    const venue = venueKey(r.venue)
    const teams = [codeOf(r.team_batting_first), codeOf(r.team_batting_second)]
    const city = venueRows.find((v) => v.venue_key === venue).city
    const local = teams.filter((t) => city.startsWith(HOME_CITY[t]))
    const home = local.length === 1 ? local[0] : teams[0]
    const away = teams.find((t) => t !== home)
    const slot = perDay.get(`${r.date}|${venue}`) ?? 0
    perDay.set(`${r.date}|${venue}`, slot + 1)
    const localTime = slot === 0 ? '13:40' : '17:10'
    const stage = r.stage ? 'final' : 'regular'
    const assumed = ['startsAt', 'home']
    if (r.assumedDateVenue) assumed.push('date', 'venue')
    return { number: i + 1, startsAt: zonedToUtc(r.date, localTime, zones.get(venue)), venue, home, away, marginGame: false, stage, assumed, source: r }
  })
  const rounds = new Map()
  for (const m of matches) {
    const week = Math.floor((Date.parse(`${m.source.date}T00:00:00Z`) - first) / (7 * 86_400_000)) + 1
    rounds.set(week, [...(rounds.get(week) ?? []), m])
  }
  const roundList = markMarginGames(
    [...rounds].sort(([a], [b]) => a - b).map(([number, ms]) => ({
      number,
      label: `Week ${number}`,
      matches: ms.map(({ source: _s, ...m }) => m),
    })),
  )
  const keys = new Set(matches.map((m) => m.venue))
  out('seasons/wbbl-2025-26.json', {
    sport: 'wbbl',
    season: 11,
    name: "Women's Big Bash League",
    year: '2025-26',
    goldenWeekRound: 3,
    ladderPoints: { win: 2, noResult: 1, tie: 1, loss: 0 },
    squads,
    venues: venuesFor(keys),
    rounds: roundList,
    assumptions: [
      'Start times (assumed, simulated): the source has dates only; the first match at a venue on a day starts 13:40 local time, a second 17:10 local, converted to UTC with the venue time zone.',
      'Home sides (assumed): the team whose home city is the venue city when exactly one is, otherwise the team batting first.',
      'Rounds (assumed): consecutive 7-day weeks from the first match date; the Knockout, Challenger and Final fall in the last week.',
      'Match 26 (Heat v Sixers, abandoned): no date or venue in the source; placed on 2025-11-27 at Allan Border Field by its Cricsheet id order.',
      'Margin game (Super Sixes): the last match of each round. Golden Week: round 3, a configuration choice of this project.',
    ],
    sources: ATTRIBUTION,
  })
  out('results/wbbl-2025-26.json', {
    sport: 'wbbl',
    season: 11,
    results: matches.map((m) => {
      const r = m.source
      const noResult = /no result|abandoned/i.test(r.outcome)
      return {
        match: m.number,
        winner: noResult || !r.winner ? null : codeOf(r.winner),
        outcome: noResult || !r.winner ? 'no_result' : 'win',
        home: null,
        away: null,
        sixes: null,
        method: r.method || null,
        cricsheetId: r.cricsheet_id,
        note: r.outcome || null,
      }
    }),
  })
}

/** Local wall-clock time in an IANA zone -> ISO UTC, daylight saving included. */
function zonedToUtc(date, time, zone) {
  const guess = Date.parse(`${date}T${time}:00Z`)
  const fmt = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false })
  const parts = Object.fromEntries(fmt.formatToParts(new Date(guess)).map((p) => [p.type, p.value]))
  const asLocal = Date.parse(`${parts.year}-${parts.month}-${parts.day}T${parts.hour === '24' ? '00' : parts.hour}:${parts.minute}:00Z`)
  return new Date(guess - (asLocal - guess)).toISOString().replace('.000Z', 'Z')
}
