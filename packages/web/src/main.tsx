import { setNonce } from 'get-nonce'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { Provider } from 'react-redux'
import { RouterProvider } from 'react-router'
import { startBootReads } from './app/boot-reads.ts'
import { createRouter } from './app/router.tsx'
import { createStore } from './app/store.ts'
import { startErrorReporting } from './lib/integrations.ts'
import './ui/global.css'

// The server's per-page style nonce (app.ts), for the one <style> element a modal's scroll lock adds.
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content
if (nonce) setNonce(nonce)

startBootReads()

const root = document.getElementById('root')
if (!root) throw new Error('No #root element')
createRoot(root).render(
  <StrictMode>
    <Provider store={createStore()}>
      <RouterProvider router={createRouter()} />
    </Provider>
  </StrictMode>,
)

// Optional, after the first render so it never delays the page.
void startErrorReporting()
