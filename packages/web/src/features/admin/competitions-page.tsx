import { useState, type FormEvent } from 'react'
import {
  competitionSettingsBodySchema,
  createCompetitionBodySchema,
  type AdminCompetition,
} from '@tipping/contract/admin'
import { cricsheetMatchSchema } from '@tipping/contract/cricsheet'
import { seasonFileSchema } from '@tipping/contract/season-file'
import { Button } from '../../ui/button.tsx'
import { failureMessage } from '../../lib/api.ts'
import {
  useCompetitionsQuery,
  useCreateCompetitionMutation,
  useImportCricsheetMutation,
  useImportFixtureMutation,
  useRepublishMutation,
  useRescoreMutation,
  useUpdateCompetitionMutation,
} from './admin-api.ts'
import styles from './admin.module.css'
import { FormField, SelectField } from '../../ui/form-field.tsx'
import { FormMessage } from './form-message.tsx'
import { apiFieldErrors, formText, zodFieldErrors, type FieldErrors } from './form-errors.ts'
import { usePageTitle } from '../../lib/page-title.ts'

const readJson = async (file: File): Promise<unknown> => {
  try {
    return JSON.parse(await file.text()) as unknown
  } catch {
    throw new Error(`${file.name} is not JSON`)
  }
}

const POINTS = ['win', 'noResult', 'tie', 'loss'] as const

/**
 * One season's settings: Golden Week, ladder points, current season, re-score. A change refetches
 * the list of seasons (admin-api.ts tags).
 */
function CompetitionCard({ c }: { c: AdminCompetition }) {
  const [updateCompetition, update] = useUpdateCompetitionMutation()
  const [rescore, rescoring] = useRescoreMutation()
  const [errors, setErrors] = useState<FieldErrors>({})
  const [ok, setOk] = useState<string | null>(null)
  const busy = update.isLoading || rescoring.isLoading

  const run = async (what: () => Promise<string>) => {
    setOk(null)
    setErrors({})
    try {
      setOk(await what())
    } catch (err) {
      setErrors(apiFieldErrors(err))
    }
  }

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const data = new FormData(e.currentTarget)
    const golden = formText(data, 'goldenWeekRound')
    const parsed = competitionSettingsBodySchema.safeParse({
      goldenWeekRound: golden === '' ? null : Number(golden),
      ladderPoints: Object.fromEntries(POINTS.map((k) => [k, Number(data.get(k))])),
    })
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error))
      return
    }
    void run(async () => {
      await updateCompetition({ id: c.id, body: parsed.data }).unwrap()
      return 'Settings saved.'
    })
  }

  return (
    <li className={styles.card} aria-labelledby={`competition-${c.id}`}>
      <h2 id={`competition-${c.id}`}>
        {c.name} <span className={styles.badge}>{c.sport.toUpperCase()}</span>{' '}
        {c.isCurrent ? <span className={styles.badge}>current</span> : null}
      </h2>
      <p className={styles.meta}>
        {c.identifier} · {c.year} · {c.rounds} rounds · {c.completedMatches}/{c.matches} matches
        complete
      </p>
      <form
        className={styles.stack}
        onSubmit={submit}
        noValidate
        aria-label={`Settings of ${c.name}`}
      >
        <div className={styles.grid}>
          <SelectField
            compact
            label="Golden Week round"
            name="goldenWeekRound"
            defaultValue={c.goldenWeekRound ?? ''}
            error={errors.goldenWeekRound}
          >
            <option value="">None</option>
            {Array.from({ length: c.rounds }, (_, i) => (
              <option key={i + 1} value={i + 1}>
                Round {i + 1}
              </option>
            ))}
          </SelectField>
          {POINTS.map((k) => (
            <FormField
              compact
              key={k}
              label={`Ladder points: ${k === 'noResult' ? 'no result' : k}`}
              name={k}
              inputMode="numeric"
              defaultValue={c.ladderPoints[k]}
              error={errors[`ladderPoints.${k}`]}
            />
          ))}
        </div>
        <FormMessage error={errors.form ?? errors.ladderPoints} ok={ok} />
        <div className={styles.row}>
          <Button type="submit" disabled={busy}>
            Save settings
          </Button>
          {c.isCurrent ? null : (
            <Button
              variant="secondary"
              disabled={busy}
              onClick={() =>
                void run(async () => {
                  await updateCompetition({ id: c.id, body: { isCurrent: true } }).unwrap()
                  return `${c.name} is now the current season.`
                })
              }
            >
              Make current
            </Button>
          )}
          <Button
            variant="secondary"
            disabled={busy}
            onClick={() =>
              void run(async () => {
                const r = await rescore(c.id).unwrap()
                return `Re-scored ${r.rounds} rounds for ${r.tippers} tippers.`
              })
            }
          >
            Re-score
          </Button>
        </div>
      </form>
    </li>
  )
}

/** Competitions and seasons: create, import a fixture, settings, Cricsheet results, publish. */
export default function CompetitionsPage() {
  usePageTitle('Competitions and seasons · Admin')
  const { data, error } = useCompetitionsQuery()
  const [createCompetition] = useCreateCompetitionMutation()
  const [importFixture] = useImportFixtureMutation()
  const [importCricsheet] = useImportCricsheetMutation()
  const [republish] = useRepublishMutation()
  const [createErrors, setCreateErrors] = useState<FieldErrors>({})
  const [createOk, setCreateOk] = useState<string | null>(null)
  const [importMsg, setImportMsg] = useState<FieldErrors & { ok?: string }>({})
  const [cricsheetMsg, setCricsheetMsg] = useState<FieldErrors & { ok?: string }>({})
  const [publishMsg, setPublishMsg] = useState<FieldErrors & { ok?: string }>({})
  const list = data?.competitions ?? []

  const create = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    setCreateOk(null)
    const form = e.currentTarget
    const d = new FormData(form)
    const parsed = createCompetitionBodySchema.safeParse({
      sport: d.get('sport'),
      season: Number(d.get('season')),
      name: d.get('name'),
      year: d.get('year'),
    })
    if (!parsed.success) return setCreateErrors(zodFieldErrors(parsed.error))
    setCreateErrors({})
    try {
      const { competition } = await createCompetition(parsed.data).unwrap()
      setCreateOk(`Created ${competition.identifier}. Import its fixture file next.`)
      form.reset()
    } catch (err) {
      setCreateErrors(apiFieldErrors(err))
    }
  }

  const importFile = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const file = (new FormData(e.currentTarget).get('fixture') as File | null) ?? null
    if (!file || file.size === 0) return setImportMsg({ fixture: 'Choose a season file' })
    try {
      const parsed = seasonFileSchema.safeParse(await readJson(file))
      if (!parsed.success) {
        const [k, v] = Object.entries(zodFieldErrors(parsed.error))[0]!
        return setImportMsg({ fixture: `${k}: ${v}` })
      }
      setImportMsg({ ok: 'Importing…' })
      const r = await importFixture(parsed.data).unwrap()
      setImportMsg({
        ok: `${r.competition.name}: ${r.added} matches added, ${r.changed} changed.`,
      })
    } catch (err) {
      const m = apiFieldErrors(err)
      setImportMsg({
        fixture: Object.entries(m)
          .map(([k, v]) => (k === 'form' ? v : `${k}: ${v}`))
          .join(' '),
      })
    }
  }

  const cricsheet = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const d = new FormData(e.currentTarget)
    const id = Number(d.get('competition'))
    const files = (d.getAll('files') as File[]).filter((f) => f.size > 0)
    if (files.length === 0) return setCricsheetMsg({ files: 'Choose Cricsheet match files' })
    try {
      const parsed = []
      for (const f of files) {
        const r = cricsheetMatchSchema.safeParse(await readJson(f))
        if (!r.success) return setCricsheetMsg({ files: `${f.name} is not a Cricsheet match file` })
        parsed.push(r.data)
      }
      setCricsheetMsg({ ok: 'Importing…' })
      const r = await importCricsheet({ id, files: parsed }).unwrap()
      const missed = r.unmatched.map((u) => `${u.date} ${u.teams.join(' v ')}`).join('; ')
      setCricsheetMsg({
        ok: `${r.applied.length} results applied (matches ${r.applied.map((a) => a.number).join(', ') || 'none'}).${missed ? ` No fixture match for: ${missed}.` : ''}`,
      })
    } catch (err) {
      setCricsheetMsg({ files: Object.values(apiFieldErrors(err)).join(' ') })
    }
  }

  const publish = async () => {
    setPublishMsg({ ok: 'Publishing…' })
    try {
      const r = await republish().unwrap()
      setPublishMsg({ ok: `Published ${r.files} files.` })
    } catch (err) {
      setPublishMsg(apiFieldErrors(err))
    }
  }

  return (
    <div className={styles.page}>
      <h1>Competitions and seasons</h1>
      {error ? (
        <p className={styles.error} role="alert">
          {failureMessage(error, 'Could not load')}
        </p>
      ) : null}
      <ul className={styles.list}>
        {list.map((c) => (
          <CompetitionCard key={c.id} c={c} />
        ))}
      </ul>

      <section className={styles.card} aria-labelledby="publish-heading">
        <h2 id="publish-heading">Public files</h2>
        <p className={styles.meta}>
          Results and schedule changes republish by themselves; this writes every file again.
        </p>
        <FormMessage error={publishMsg.form} ok={publishMsg.ok ?? null} />
        <div className={styles.row}>
          <Button variant="secondary" onClick={() => void publish()}>
            Re-publish
          </Button>
        </div>
      </section>

      <section className={styles.card} aria-labelledby="import-heading">
        <h2 id="import-heading">Import a fixture file</h2>
        <p className={styles.meta}>
          A season file (like data/seasons/bbl-2025-26.json). Importing again updates the season in
          place; the imported season becomes its sport&apos;s current one.
        </p>
        <form
          onSubmit={(e) => void importFile(e)}
          noValidate
          aria-label="Import a fixture file"
          className={styles.stack}
        >
          <FormField
            compact
            label="Season file (JSON)"
            type="file"
            name="fixture"
            accept=".json,application/json"
            error={importMsg.fixture}
          />
          <FormMessage ok={importMsg.ok ?? null} />
          <Button type="submit">Import fixture</Button>
        </form>
      </section>

      <section className={styles.card} aria-labelledby="cricsheet-heading">
        <h2 id="cricsheet-heading">Import Cricsheet results</h2>
        <form
          onSubmit={(e) => void cricsheet(e)}
          noValidate
          aria-label="Import Cricsheet results"
          className={styles.stack}
        >
          <div className={`${styles.grid} ${styles.gridWide}`}>
            <SelectField
              compact
              label="Season"
              name="competition"
              defaultValue={list.find((c) => c.isCurrent)?.id}
            >
              {list.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name} ({c.sport.toUpperCase()})
                </option>
              ))}
            </SelectField>
            <FormField
              compact
              label="Match files (JSON)"
              type="file"
              name="files"
              multiple
              accept=".json,application/json"
              error={cricsheetMsg.files}
            />
          </div>
          <FormMessage ok={cricsheetMsg.ok ?? null} />
          <Button type="submit">Import results</Button>
        </form>
      </section>

      <section className={styles.card} aria-labelledby="create-heading">
        <h2 id="create-heading">Create a season</h2>
        <form
          onSubmit={(e) => void create(e)}
          noValidate
          aria-label="Create a season"
          className={styles.stack}
        >
          <div className={styles.grid}>
            <SelectField compact label="Sport" name="sport" error={createErrors.sport}>
              <option value="bbl">BBL</option>
              <option value="wbbl">WBBL</option>
            </SelectField>
            <FormField
              compact
              label="Season number"
              name="season"
              inputMode="numeric"
              error={createErrors.season}
            />
            <FormField
              compact
              label="Name"
              name="name"
              placeholder="Big Bash League"
              error={createErrors.name}
            />
            <FormField
              compact
              label="Year"
              name="year"
              placeholder="2026-27"
              error={createErrors.year}
            />
          </div>
          <FormMessage error={createErrors.form} ok={createOk} />
          <Button type="submit">Create season</Button>
        </form>
      </section>
    </div>
  )
}
