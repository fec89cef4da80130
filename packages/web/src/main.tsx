import { setNonce } from 'get-nonce'
import { startTransition, StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { Provider } from 'react-redux'
import { RouterProvider } from 'react-router'
import { startBootReads } from './app/boot-reads.ts'
import { createRouter } from './app/router.tsx'
import { createStore } from './app/store.ts'
import { registerWorkerAfterPaint } from './features/offline/register-worker.ts'
import { startErrorReporting } from './lib/integrations.ts'
import { adoptBootStatic } from './lib/static-data.ts'
import './ui/global.css'

// The server's per-page style nonce (app.ts), for the one <style> element a modal's scroll lock adds.
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content
if (nonce) setNonce(nonce)

adoptBootStatic()
startBootReads()

const root = document.getElementById('root')
if (!root) throw new Error('No #root element')
const app = createRoot(root)
// As a transition, the first render is done in slices that yield to the browser between them.
startTransition(() =>
  app.render(
    <StrictMode>
      <Provider store={createStore()}>
        <RouterProvider router={createRouter()} />
      </Provider>
    </StrictMode>,
  ),
)

// Optional, after the first render so it never delays the page.
void startErrorReporting()
// The installable app's service worker: after the page has loaded (issue 32).
registerWorkerAfterPaint()
