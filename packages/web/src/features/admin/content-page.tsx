import { useState } from 'react'
import { SPORTS, type Sport } from '@tipping/contract/constants'
import {
  ADVERT_TYPES,
  CONTENT_SETTINGS,
  type ContentKey,
  type ContentSettings,
} from '@tipping/contract/content'
import { Button } from '../../ui/button.tsx'
import { failureMessage } from '../../lib/api.ts'
import { isSport } from '../../lib/sport.ts'
import { FormField, SelectField, TextAreaField } from '../../ui/form-field.tsx'
import { useContentQuery, useSaveContentMutation } from './admin-api.ts'
import styles from './admin.module.css'
import { FormMessage } from './form-message.tsx'
import { apiFieldErrors, zodFieldErrors, type FieldErrors } from './form-errors.ts'
import { usePageTitle } from '../../lib/page-title.ts'

// Site content (spec 2 and 3): notification bars, top banner, adverts, FAQs, help pages and the
// site switches. Each tab edits one content setting and saves it whole with PUT
// /api/admin/content/{key}, checked first by that key's schema in the contract.

export const CONTENT_TABS: { key: ContentKey; label: string }[] = [
  { key: 'notification_bars', label: 'Notification bars' },
  { key: 'top_banner', label: 'Top banner' },
  { key: 'adverts', label: 'Adverts' },
  { key: 'faqs', label: 'FAQs' },
  { key: 'help_pages', label: 'Help pages' },
  { key: 'site_switches', label: 'Site switches' },
]

function Check(props: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className={styles.check}>
      <input
        type="checkbox"
        checked={props.checked}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      {props.label}
    </label>
  )
}

type Item = Record<string, string>
interface Column {
  key: string
  label: string
  kind?: 'text' | 'textarea' | 'select'
  options?: readonly string[]
}

/** An editable list of items per sport (adverts, FAQs, help pages). */
function PerSportList(props: {
  value: Record<Sport, Item[]>
  onChange: (v: Record<Sport, Item[]>) => void
  columns: Column[]
  blank: Item
  noun: string
  errors: FieldErrors
}) {
  const [sport, setSport] = useState<Sport>('bbl')
  const items = props.value[sport]
  const set = (next: Item[]) => props.onChange({ ...props.value, [sport]: next })
  return (
    <div className={styles.page}>
      <SelectField
        compact
        label="Competition"
        value={sport}
        onChange={(e) => {
          if (isSport(e.target.value)) setSport(e.target.value)
        }}
      >
        {SPORTS.map((s) => (
          <option key={s} value={s}>
            {s.toUpperCase()}
          </option>
        ))}
      </SelectField>
      {items.length === 0 ? <p className={styles.meta}>No {props.noun}s yet.</p> : null}
      <ol className={styles.list}>
        {items.map((item, i) => (
          <li key={i} className={styles.fieldset}>
            {props.columns.map((c) => {
              const error = props.errors[`${sport}.${i}.${c.key}`]
              const update = (v: string) =>
                set(items.map((x, j) => (j === i ? { ...x, [c.key]: v } : x)))
              const label = `${c.label} (${props.noun} ${i + 1})`
              if (c.kind === 'textarea')
                return (
                  <TextAreaField
                    compact
                    key={c.key}
                    label={label}
                    value={item[c.key] ?? ''}
                    onChange={(e) => update(e.target.value)}
                    error={error}
                    rows={5}
                  />
                )
              if (c.kind === 'select')
                return (
                  <SelectField
                    compact
                    key={c.key}
                    label={label}
                    value={item[c.key]}
                    onChange={(e) => update(e.target.value)}
                    error={error}
                  >
                    {c.options?.map((o) => (
                      <option key={o} value={o}>
                        {o}
                      </option>
                    ))}
                  </SelectField>
                )
              return (
                <FormField
                  compact
                  key={c.key}
                  label={label}
                  value={item[c.key] ?? ''}
                  onChange={(e) => update(e.target.value)}
                  error={error}
                />
              )
            })}
            <div className={styles.row}>
              <Button variant="secondary" onClick={() => set(items.filter((_, j) => j !== i))}>
                Remove {props.noun} {i + 1}
              </Button>
            </div>
          </li>
        ))}
      </ol>
      <div className={styles.row}>
        <Button variant="secondary" onClick={() => set([...items, { ...props.blank }])}>
          Add {props.noun}
        </Button>
      </div>
    </div>
  )
}

/** One tab's editor over its draft value. */
function Editor<K extends ContentKey>(props: {
  tab: K
  draft: ContentSettings[K]
  onDraft: (v: ContentSettings[K]) => void
  errors: FieldErrors
}) {
  const { tab, errors } = props
  const draft: ContentSettings[ContentKey] = props.draft
  const onDraft = props.onDraft as (v: unknown) => void
  switch (tab) {
    case 'notification_bars': {
      const bars = draft as ContentSettings['notification_bars']
      return (
        <>
          {SPORTS.map((s) => (
            <fieldset key={s} className={styles.fieldset}>
              <legend>{s.toUpperCase()} notification bar</legend>
              <Check
                label={`Show the ${s.toUpperCase()} bar`}
                checked={bars[s].isEnabled}
                onChange={(v) => onDraft({ ...bars, [s]: { ...bars[s], isEnabled: v } })}
              />
              <TextAreaField
                compact
                label={`${s.toUpperCase()} message`}
                rows={3}
                value={bars[s].message}
                onChange={(e) => onDraft({ ...bars, [s]: { ...bars[s], message: e.target.value } })}
                error={errors[`${s}.message`]}
              />
            </fieldset>
          ))}
        </>
      )
    }
    case 'top_banner': {
      const b = draft as ContentSettings['top_banner']
      return (
        <>
          <Check
            label="Show the top banner"
            checked={b.isEnabled}
            onChange={(v) => onDraft({ ...b, isEnabled: v })}
          />
          <FormField
            compact
            label="Banner message"
            value={b.message}
            onChange={(e) => onDraft({ ...b, message: e.target.value })}
            error={errors.message}
          />
          <FormField
            compact
            label="Link (optional: /path or https://...)"
            value={b.url ?? ''}
            onChange={(e) =>
              onDraft({ ...b, url: e.target.value.trim() === '' ? null : e.target.value })
            }
            error={errors.url}
          />
        </>
      )
    }
    case 'adverts':
      return (
        <PerSportList
          value={draft as unknown as Record<Sport, Item[]>}
          onChange={onDraft}
          errors={errors}
          noun="advert"
          blank={{ type: 'mrec', desktopImage: '', mobileImage: '', url: '', alt: '' }}
          columns={[
            { key: 'type', label: 'Type', kind: 'select', options: ADVERT_TYPES },
            { key: 'desktopImage', label: 'Desktop image' },
            { key: 'mobileImage', label: 'Mobile image' },
            { key: 'url', label: 'Link' },
            { key: 'alt', label: 'Alt text: what the images say' },
          ]}
        />
      )
    case 'faqs':
      return (
        <PerSportList
          value={draft as unknown as Record<Sport, Item[]>}
          onChange={onDraft}
          errors={errors}
          noun="question"
          blank={{ question: '', answer: '' }}
          columns={[
            { key: 'question', label: 'Question' },
            { key: 'answer', label: 'Answer', kind: 'textarea' },
          ]}
        />
      )
    case 'help_pages':
      return (
        <PerSportList
          value={draft as unknown as Record<Sport, Item[]>}
          onChange={onDraft}
          errors={errors}
          noun="page"
          blank={{ section: '', title: '', body: '' }}
          columns={[
            { key: 'section', label: 'Address (/{sport}/help/...)' },
            { key: 'title', label: 'Title' },
            { key: 'body', label: 'Text (a blank line starts a paragraph)', kind: 'textarea' },
          ]}
        />
      )
    case 'site_switches': {
      const s = draft as ContentSettings['site_switches']
      return (
        <>
          <Check
            label="Offseason mode (the game is closed between seasons)"
            checked={s.offseason}
            onChange={(v) => onDraft({ ...s, offseason: v })}
          />
          <Check
            label="Sign-in enabled"
            checked={s.loginEnabled}
            onChange={(v) => onDraft({ ...s, loginEnabled: v })}
          />
        </>
      )
    }
  }
}

/**
 * The content tab of the console. The settings come from the cache; the draft is what the admin
 * has changed on the open tab (none: the tab shows what the server holds).
 */
export default function ContentPage() {
  usePageTitle('Content · Admin')
  const { data, error: loadError } = useContentQuery()
  const [saveContent, saving] = useSaveContentMutation()
  const [tab, setTab] = useState<ContentKey>('notification_bars')
  const [draft, setDraft] = useState<{ tab: ContentKey; value: unknown } | null>(null)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [ok, setOk] = useState<string | null>(null)
  const content = data?.content
  const value = draft?.tab === tab ? draft.value : content?.[tab]

  // The messages belong to the tab.
  const open = (next: ContentKey) => {
    setTab(next)
    setDraft(null)
    setErrors({})
    setOk(null)
  }

  const save = async () => {
    setOk(null)
    const parsed = CONTENT_SETTINGS[tab].safeParse(value)
    if (!parsed.success) return setErrors(zodFieldErrors(parsed.error))
    setErrors({})
    try {
      // The answer becomes the cached settings (admin-api.ts), which the tab then shows.
      await saveContent({ key: tab, value: parsed.data }).unwrap()
      setDraft(null)
      setOk('Saved and published.')
    } catch (err) {
      setErrors(apiFieldErrors(err))
    }
  }

  const label = CONTENT_TABS.find((t) => t.key === tab)!.label
  return (
    <div className={styles.page}>
      <h1>Content</h1>
      <nav aria-label="Content settings" className={styles.tabs}>
        {CONTENT_TABS.map((t) => (
          <Button
            key={t.key}
            variant={t.key === tab ? 'primary' : 'secondary'}
            aria-pressed={t.key === tab}
            onClick={() => open(t.key)}
          >
            {t.label}
          </Button>
        ))}
      </nav>
      <FormMessage error={loadError ? failureMessage(loadError, 'Could not load') : undefined} />
      {content ? (
        <form
          className={styles.card}
          aria-label={label}
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            void save()
          }}
        >
          <h2>{label}</h2>
          <Editor
            tab={tab}
            draft={value as ContentSettings[typeof tab]}
            onDraft={(next) => setDraft({ tab, value: next })}
            errors={errors}
          />
          <FormMessage
            error={
              errors.form ??
              (Object.keys(errors).length > 0 && !ok
                ? 'Some fields need fixing before this can be saved.'
                : undefined)
            }
            ok={ok}
          />
          <div className={styles.row}>
            <Button type="submit" disabled={saving.isLoading}>
              {saving.isLoading ? 'Saving…' : `Save ${label.toLowerCase()}`}
            </Button>
          </div>
        </form>
      ) : null}
    </div>
  )
}
