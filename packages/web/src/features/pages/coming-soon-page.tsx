import { Link, useParams } from 'react-router'
import { Panel } from '../../ui/panel.tsx'

/** An honest placeholder for a screen that is not built yet: it says so, with a way back. */
export function ComingSoonPage({ name }: { name: string }) {
  const { sport } = useParams()
  return (
    <Panel title={name}>
      <p>
        This page is not built yet. It is on the way; your tips and scores are safe in the meantime.
      </p>
      <p>
        <Link to={sport ? `/${sport}/tipping` : '/'}>Back to tipping</Link>
      </p>
    </Panel>
  )
}
