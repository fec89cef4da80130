import { Panel } from '../ui/panel.tsx'

/** Spec 2: the router fallback. */
export function RouteError() {
  return (
    <Panel title="Unexpected Application Error!">
      <p>Something went wrong showing this page. Reload to try again.</p>
      <p>
        <a href="/">Go to the home page</a>
      </p>
    </Panel>
  )
}
