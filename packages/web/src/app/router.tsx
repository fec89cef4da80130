import { createBrowserRouter, type RouteObject } from 'react-router'
import { retryImport } from '../lib/lazy-retry.ts'
import { LandingLayout, PlainLayout } from './layouts/landing-layout.tsx'
import { RootLayout } from './layouts/root-layout.tsx'
import { LogoutRoute, SignedInLayout } from './layouts/signed-in-layout.tsx'
import { RouteError } from './route-error.tsx'

// Every route of the specification's section 2, pages lazy-loaded with retries.

const comingSoon = (name: string, plain = false): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => {
    const { ComingSoonPage } = await retryImport(
      () => import('../features/pages/coming-soon-page.tsx'),
    )
    return {
      Component: plain
        ? () => (
            <PlainLayout>
              <ComingSoonPage name={name} />
            </PlainLayout>
          )
        : () => <ComingSoonPage name={name} />,
    }
  },
})

const landingPaths = [
  '/',
  '/login',
  '/registration',
  '/forgot-password',
  '/bbl',
  '/wbbl',
  '/login-app',
  '/login-bigbash-app',
  '/login-app/callback',
  '/login-bigbash-app/callback',
]

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { element: <LandingLayout />, children: landingPaths.map((path) => ({ path })) },
      {
        path: '/:sport',
        element: <SignedInLayout />,
        children: [
          {
            path: 'tipping',
            lazy: async () => ({
              Component: (await retryImport(() => import('../features/tipping/tipping-page.tsx')))
                .default,
            }),
          },
          { path: 'leagues', ...comingSoon('Your leagues') },
          { path: 'leagues/join', ...comingSoon('Join a league') },
          { path: 'leagues/join/:code', ...comingSoon('Join a league') },
          { path: 'leagues/create', ...comingSoon('Create a league') },
          { path: 'rankings', ...comingSoon('Rankings') },
          { path: 'league/:leagueId/:section', ...comingSoon('League') },
          { path: 'account', ...comingSoon('Your account') },
        ],
      },
      { path: '/:sport/help', ...comingSoon('Help', true) },
      { path: '/:sport/help/:section', ...comingSoon('Help', true) },
      { path: '/terms', ...comingSoon('Terms & Conditions', true) },
      { path: '/privacy-policy', ...comingSoon('Privacy Policy', true) },
      { path: '/logout', element: <LogoutRoute /> },
      {
        path: '*',
        lazy: async () => {
          const { default: NotFoundPage } = await retryImport(
            () => import('../features/pages/not-found-page.tsx'),
          )
          return {
            Component: () => (
              <PlainLayout>
                <NotFoundPage />
              </PlainLayout>
            ),
          }
        },
      },
    ],
  },
]

export const createRouter = () => createBrowserRouter(routes)
