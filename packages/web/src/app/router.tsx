import type { ComponentType } from 'react'
import { createBrowserRouter, type RouteObject } from 'react-router'
import { LANDING_PATHS } from '@tipping/contract/pages'
import { SSO_CALLBACK_PATHS } from '@tipping/contract/sso-clients'
import NotFoundPage from '../features/pages/not-found-page.tsx'
import { retryImport } from '../lib/lazy-retry.ts'
import { Spinner } from '../ui/spinner.tsx'
import { AdminLayout } from './layouts/admin-layout.tsx'
import { HelpLayout } from './layouts/help-layout.tsx'
import { HomeGuard } from './home-guard.tsx'
import { LandingLayout } from './layouts/landing-layout.tsx'
import { PlainLayout } from './layouts/plain-layout.tsx'
import { RootLayout } from './layouts/root-layout.tsx'
import { LogoutRoute, SignedInLayout } from './layouts/signed-in-layout.tsx'
import { givePageArrivalRouter } from './page-arrival.tsx'
import { RouteError } from './route-error.tsx'
import { AccountLinkRoute, JoinLinkRoute, ShareRoute } from './link-routes.tsx'

// Every route of the specification's section 2, pages lazy-loaded with retries.

/** A page module with a default-exported component, lazy-loaded with retries. */
const page =
  (load: () => Promise<{ default: ComponentType }>): RouteObject['lazy'] =>
  async () => ({ Component: (await retryImport(load)).default })

/** The same, framed by the plain layout (header, footer) for standalone pages. */
const plainPage =
  (load: () => Promise<{ default: ComponentType }>): RouteObject['lazy'] =>
  async () => {
    const { default: Page } = await retryImport(load)
    return {
      Component: () => (
        <PlainLayout>
          <Page />
        </PlainLayout>
      ),
    }
  }

// Single sign-on callbacks (spec 4 "Sign-in callback"): the website's and the two apps'.
const ssoCallbackPaths = Object.values(SSO_CALLBACK_PATHS)

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    // A first visit to a lazy page waits for its code before anything renders: the same
    // spinner as the root layout's while the site content loads (and no router warning).
    hydrateFallbackElement: <Spinner label="Loading" />,
    children: [
      {
        element: <HomeGuard />,
        children: [
          {
            element: <LandingLayout />,
            // The layout draws each of these paths itself; the routes only say they exist.
            children: LANDING_PATHS.map((path) => ({ path, element: null })),
          },
        ],
      },
      ...ssoCallbackPaths.map((path) => ({
        path,
        lazy: page(() => import('./sso-callback-route.tsx')),
      })),
      {
        path: '/:sport',
        element: <SignedInLayout />,
        children: [
          {
            path: 'tipping',
            lazy: page(() => import('./tipping-route.tsx')),
          },
          {
            path: 'leagues',
            lazy: page(() => import('../features/leagues/leagues-page.tsx')),
          },
          {
            path: 'leagues/join',
            lazy: page(() => import('../features/leagues/join-league-page.tsx')),
          },
          {
            path: 'leagues/join/:code',
            lazy: page(() => import('../features/leagues/join-league-page.tsx')),
          },
          {
            path: 'leagues/create',
            lazy: page(() => import('../features/leagues/create-league-page.tsx')),
          },
          {
            path: 'rankings',
            lazy: page(() => import('../features/leagues/rankings-page.tsx')),
          },
          {
            path: 'league/:leagueId',
            lazy: page(() => import('../features/leagues/league-page.tsx')),
          },
          {
            path: 'league/:leagueId/:section',
            lazy: page(() => import('../features/leagues/league-page.tsx')),
          },
          {
            path: 'league/:leagueId/head-to-head',
            lazy: page(() => import('../features/leagues/head-to-head-page.tsx')),
          },
          {
            path: 'season',
            lazy: page(() => import('../features/season/season-page.tsx')),
          },
          {
            path: 'tips-history',
            lazy: page(() => import('../features/tipping/tips-history-page.tsx')),
          },
          {
            path: 'archive',
            lazy: page(() => import('../features/archive/archive-page.tsx')),
          },
          {
            path: 'archive/:year',
            lazy: page(() => import('../features/archive/archive-season-page.tsx')),
          },
          {
            path: 'archive/:year/league/:leagueId',
            lazy: page(() => import('../features/archive/archive-league-page.tsx')),
          },
          {
            path: 'account',
            lazy: page(() => import('../features/auth/account-page.tsx')),
          },
        ],
      },
      // The contact form (spec 2 "Other screens") sits with help; a fixed segment outranks
      // the help section parameter.
      {
        path: '/:sport/help/contact',
        lazy: async () => {
          const { default: ContactPage } = await retryImport(
            () => import('../features/contact/contact-page.tsx'),
          )
          return {
            Component: () => (
              <PlainLayout>
                <ContactPage />
              </PlainLayout>
            ),
          }
        },
      },
      {
        // The admin console (issue 7 item 6), outside the sport layout.
        path: '/admin',
        element: <AdminLayout />,
        children: [
          { index: true, lazy: page(() => import('../features/admin/competitions-page.tsx')) },
          { path: 'matches', lazy: page(() => import('../features/admin/matches-page.tsx')) },
          { path: 'content', lazy: page(() => import('../features/admin/content-page.tsx')) },
          { path: 'users', lazy: page(() => import('../features/admin/users-page.tsx')) },
          { path: 'leagues', lazy: page(() => import('../features/admin/leagues-page.tsx')) },
          { path: 'emails', lazy: page(() => import('../features/admin/emails-page.tsx')) },
          { path: 'audit', lazy: page(() => import('../features/admin/audit-page.tsx')) },
          { path: 'health', lazy: page(() => import('../features/admin/health-page.tsx')) },
        ],
      },
      {
        // Help (spec 2): FAQ, then the published help pages (guidelines, game rules, prizes).
        path: '/:sport/help',
        element: <HelpLayout />,
        children: [
          { index: true, lazy: page(() => import('../features/help/help-page.tsx')) },
          { path: ':section', lazy: page(() => import('../features/help/help-page.tsx')) },
        ],
      },
      { path: '/terms', lazy: plainPage(() => import('../features/pages/terms-page.tsx')) },
      {
        path: '/privacy-policy',
        lazy: plainPage(() => import('../features/pages/privacy-page.tsx')),
      },
      { path: '/logout', element: <LogoutRoute /> },
      {
        // The link of the password reset email (not in the spec's route table; it names none).
        path: '/reset-password',
        lazy: async () => {
          const { default: ResetPasswordPage } = await retryImport(
            () => import('../features/auth/reset-password-page.tsx'),
          )
          return {
            Component: () => (
              <PlainLayout>
                <ResetPasswordPage />
              </PlainLayout>
            ),
          }
        },
      },
      { path: '/share/:sport/:section/:token', element: <ShareRoute /> },
      { path: '/leagues/join/:code', element: <JoinLinkRoute /> },
      { path: '/account', element: <AccountLinkRoute /> },
      // Not lazy: the help and signed-in layouts show the same page, so it is in the entry chunk.
      {
        path: '*',
        element: (
          <PlainLayout>
            <NotFoundPage />
          </PlainLayout>
        ),
      },
    ],
  },
]

export const createRouter = () => {
  const router = createBrowserRouter(routes)
  givePageArrivalRouter(router)
  return router
}
