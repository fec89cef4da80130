import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { LEAGUE_DESCRIPTION_MAX } from '@tipping/contract/constants'
import { createLeagueBodySchema } from '@tipping/contract/leagues'
import { asFailure } from '../../lib/api-failure.ts'
import { requestIdKeeper } from '../../lib/request-id.ts'
import { useSport } from '../../lib/sport.ts'
import { useFixtureQuery } from '../../lib/static-api.ts'
import { Button } from '../../ui/button.tsx'
import { FormField } from '../../ui/form-field.tsx'
import { useCreateLeagueMutation } from './leagues-api.ts'
import styles from './leagues.module.css'
import { usePageTitle } from '../../lib/page-title.ts'

type Errors = Partial<Record<'name' | 'description' | 'privacy' | 'startRound' | 'form', string>>

/** Spec 2: the create league form, checked by the contract's schema before it is sent. */
export default function CreateLeaguePage() {
  usePageTitle('Create a league')
  const sport = useSport()
  const navigate = useNavigate()
  const fixture = useFixtureQuery(sport)
  const rounds = fixture.data?.rounds.filter((x) => x.status === 'scheduled') ?? []
  const [createLeague] = useCreateLeagueMutation()
  const [errors, setErrors] = useState<Errors>({})
  const [busy, setBusy] = useState(false)
  const [description, setDescription] = useState('')
  // Decision 049: the league's create key, the same while the values are (a second press after
  // an error whose league had in fact been made opens that league, not a twin).
  const [requestIds] = useState(requestIdKeeper)
  const formError =
    errors.form ?? (fixture.isError ? 'Could not load the weeks of the season.' : undefined)

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const data = new FormData(e.currentTarget)
    const parsed = createLeagueBodySchema.safeParse({
      name: data.get('name'),
      description: data.get('description') ?? '',
      privacy: data.get('privacy'),
      startRound: Number(data.get('startRound')),
    })
    if (!parsed.success) {
      const next: Errors = {}
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? 'form') as keyof Errors
        next[key] ??= key === 'startRound' ? 'Choose the week your league starts' : issue.message
      }
      setErrors(next)
      return
    }
    setBusy(true)
    setErrors({})
    try {
      const body = { ...parsed.data, requestId: requestIds.idFor({ sport, ...parsed.data }) }
      const { league } = await createLeague({ sport, body }).unwrap()
      void navigate(`/${sport}/league/${league.id}/ladder?invite=1`)
    } catch (err) {
      const failure = asFailure(err, 'The league was not created')
      if (failure.param && failure.param !== 'body') setErrors({ [failure.param]: failure.message })
      else setErrors({ form: failure.message })
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className={styles.page}>
      <div className={styles.titleBar}>
        <h1>Create a league</h1>
      </div>
      <form className={`${styles.card} ${styles.form}`} onSubmit={(e) => void submit(e)} noValidate>
        {formError ? (
          <p className={styles.formError} role="alert">
            {formError}
          </p>
        ) : null}
        <FormField label="League name" name="name" required maxLength={60} error={errors.name} />
        <div className={styles.fieldset}>
          <label className={styles.label} htmlFor="league-description">
            Description (optional)
          </label>
          <textarea
            id="league-description"
            name="description"
            className={styles.textarea}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            aria-invalid={errors.description ? true : undefined}
            aria-describedby="league-description-help"
          />
          <span
            id="league-description-help"
            className={errors.description ? styles.fieldError : styles.meta}
          >
            {errors.description ?? `${description.length}/${LEAGUE_DESCRIPTION_MAX} characters`}
          </span>
        </div>
        <fieldset className={styles.fieldset}>
          <legend>Privacy</legend>
          <label className={styles.choice}>
            <input type="radio" name="privacy" value="private" defaultChecked />
            <span>
              <strong>Private</strong> — only people with the code or invite link can join.
            </span>
          </label>
          <label className={styles.choice}>
            <input type="radio" name="privacy" value="public" />
            <span>
              <strong>Public</strong> — anyone can find it by name and join.
            </span>
          </label>
          {errors.privacy ? <span className={styles.fieldError}>{errors.privacy}</span> : null}
        </fieldset>
        <div className={styles.fieldset}>
          <label className={styles.label} htmlFor="league-start">
            Starting week
          </label>
          <select
            id="league-start"
            name="startRound"
            className={styles.select}
            aria-invalid={errors.startRound ? true : undefined}
          >
            {rounds.map((r) => (
              <option key={r.id} value={r.number}>
                {r.label || `Week ${r.number}`}
              </option>
            ))}
          </select>
          {errors.startRound ? (
            <span className={styles.fieldError} role="alert">
              {errors.startRound}
            </span>
          ) : null}
        </div>
        <Button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create league'}
        </Button>
      </form>
    </div>
  )
}
