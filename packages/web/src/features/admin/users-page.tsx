import { useState, type FormEvent } from 'react'
import { updateRolesBodySchema, type AdminUser } from '@tipping/contract/admin'
import { ROLES, type Role } from '@tipping/contract/constants'
import { failureMessage } from '../../lib/api.ts'
import { Button } from '../../ui/button.tsx'
import { FormField } from '../../ui/form-field.tsx'
import { useSetActiveMutation, useSetRolesMutation, useUsersQuery } from './admin-api.ts'
import styles from './admin.module.css'
import { apiError, formText, zodFieldErrors } from './form-errors.ts'
import { FormMessage } from './form-message.tsx'
import { Pager } from './pager.tsx'
import { usePageTitle } from '../../lib/page-title.ts'
import { formatTipDate } from '../../lib/dates.ts'

const ROLE_NAMES: Record<Role, string> = {
  ROLE_USER_BBL: 'BBL tipper',
  ROLE_USER_WBBL: 'WBBL tipper',
  ROLE_ADMIN: 'Admin',
}

/**
 * One user, with their roles as checkboxes (what the admin is editing) and their activation; a
 * change refetches the list (admin-api.ts tags), and the row keeps its confirmation meanwhile.
 */
function UserRow({ user }: { user: AdminUser }) {
  const [setRoles, roles] = useSetRolesMutation()
  const [setActive, active] = useSetActiveMutation()
  const [error, setError] = useState<string | undefined>()
  const [ok, setOk] = useState<string | null>(null)
  const busy = roles.isLoading || active.isLoading

  const act = async (what: () => Promise<unknown>, done: string) => {
    setError(undefined)
    setOk(null)
    try {
      await what()
      setOk(done)
    } catch (err) {
      setError(apiError(err))
    }
  }

  const saveRoles = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const parsed = updateRolesBodySchema.safeParse({
      roles: new FormData(e.currentTarget).getAll('roles'),
    })
    if (!parsed.success) return setError(Object.values(zodFieldErrors(parsed.error))[0])
    void act(() => setRoles({ id: user.id, body: parsed.data }).unwrap(), 'Roles saved.')
  }

  const name = `${user.firstName} ${user.lastName}`.trim() || user.email
  return (
    <li className={styles.card} aria-labelledby={`user-${user.id}`}>
      <h2 id={`user-${user.id}`}>
        {name} {user.deactivatedAt ? <span className={styles.badge}>deactivated</span> : null}
      </h2>
      <p className={styles.meta}>
        #{user.id} · {user.email}
        {user.teamName ? ` · ${user.teamName}` : ''} · registered {formatTipDate(user.registeredAt)}
        {user.sso ? ' · single sign-on' : ''}
      </p>
      <form onSubmit={saveRoles} aria-label={`Roles of ${name}`}>
        <fieldset className={styles.fieldset}>
          <legend>Roles</legend>
          <div className={styles.row}>
            {ROLES.map((r) => (
              <label key={r} className={styles.check}>
                <input
                  type="checkbox"
                  name="roles"
                  value={r}
                  defaultChecked={user.roles.includes(r)}
                />
                {ROLE_NAMES[r]}
              </label>
            ))}
          </div>
        </fieldset>
        <FormMessage error={error} ok={ok} />
        <div className={styles.row}>
          <Button type="submit" disabled={busy}>
            Save roles
          </Button>
          {user.deactivatedAt ? (
            <Button
              variant="secondary"
              disabled={busy}
              onClick={() =>
                void act(() => setActive({ id: user.id, active: true }).unwrap(), 'Reactivated.')
              }
            >
              Reactivate
            </Button>
          ) : (
            <Button
              variant="secondary"
              disabled={busy}
              onClick={() =>
                void act(
                  () => setActive({ id: user.id, active: false }).unwrap(),
                  'Deactivated; their sessions have ended.',
                )
              }
            >
              Deactivate
            </Button>
          )}
        </div>
      </form>
    </li>
  )
}

/** Users: search by name, team or email; roles; deactivate (ends sessions) or reactivate. */
export default function UsersPage() {
  usePageTitle('Users · Admin')
  const [search, setSearch] = useState('')
  const [page, setPage] = useState(1)
  const { data, error } = useUsersQuery({ search, page })

  return (
    <div className={styles.page}>
      <h1>Users</h1>
      <form
        role="search"
        className={styles.row}
        onSubmit={(e) => {
          e.preventDefault()
          setPage(1)
          setSearch(formText(new FormData(e.currentTarget), 'search').trim())
        }}
      >
        <FormField
          compact
          label="Name, team or email"
          name="search"
          type="search"
          defaultValue={search}
        />
        <Button type="submit">Search</Button>
      </form>
      <FormMessage error={error ? failureMessage(error, 'Could not load') : undefined} />
      {data && data.users.length === 0 ? <p>No users found.</p> : null}
      <ul className={styles.list}>
        {data?.users.map((u) => (
          <UserRow key={u.id} user={u} />
        ))}
      </ul>
      <Pager page={page} nextPage={data?.nextPage ?? null} onPage={setPage} />
    </div>
  )
}
