import { lazy, Suspense, useState, type ReactNode } from 'react'
import { useSelector } from 'react-redux'
import { retryImport } from '../../lib/lazy-retry.ts'
import type { WithSession } from '../../lib/use-current-user.ts'

// The sign-in modals validate with the contract's schemas (zod): they load the first time one is
// asked for, not with every page, so the landing page and the signed-in shell boot without zod.

const AuthModals = lazy(async () => {
  const { AuthModals: Modals } = await retryImport(() => import('./auth-modals.tsx'))
  return { default: Modals }
})

/**
 * The login and registration modals ({@link AuthModals}), rendered only once one has been opened
 * and kept mounted afterwards, so closing animations and later opens work as before.
 */
export function LazyAuthModals({ loginWith }: { loginWith?: ReactNode }) {
  const requested = useSelector((s: WithSession) => s.session.authModal !== null)
  const [wanted, setWanted] = useState(requested)
  // Adjusting state while rendering (React's documented pattern): no extra effect pass.
  if (requested && !wanted) setWanted(true)
  if (!wanted) return null
  return (
    <Suspense fallback={null}>
      <AuthModals loginWith={loginWith} />
    </Suspense>
  )
}
