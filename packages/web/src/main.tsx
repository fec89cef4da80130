import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { Provider } from 'react-redux'
import { RouterProvider } from 'react-router'
import { createRouter } from './app/router.tsx'
import { createStore } from './app/store.ts'
import { startErrorReporting } from './lib/integrations.ts'
import './ui/global.css'

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
